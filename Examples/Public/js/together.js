// Two <collection-view> elements on one page; the box jumps to a photo (scrollToItem).
import "/collection-view/v1/collection-view.js";

const photos = document.getElementById("photos");
document.getElementById("jump").addEventListener("change", (e) => photos.scrollToItem(e.target.value.trim(), "center"));
