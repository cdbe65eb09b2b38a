// The sign-in page: the form posts to the server's /signin route (SignInExample),
// which sets the token cookie and sends the browser back to ?next=. This script
// only says why a sign-in was refused and who is signed in now (/me).
const params = new URLSearchParams(location.search);
const next = params.get("next") ?? "/";
document.getElementById("next").value = next;
document.getElementById("signout-next").value = location.pathname + location.search;

const problems = {
  name: "Give a name of 1 to 40 characters.",
  unavailable: "This server has no token secret, so it cannot sign anyone in (start it with --token-secret-file or COLLECTION_TOKEN_SECRET, as make run does).",
};
const problem = problems[params.get("error")];
if (problem) {
  const box = document.getElementById("problem");
  box.textContent = problem;
  box.hidden = false;
}

const me = await fetch("/me", { credentials: "same-origin" }).then((r) => r.json()).catch(() => null);
if (me?.signedIn) {
  const current = document.getElementById("current");
  current.textContent = `Signed in as ${me.name} (${me.roles.join(", ") || "no role"}).`;
  current.hidden = false;
  document.getElementById("signout").hidden = false;
  document.getElementById("name").value = me.name;
}
