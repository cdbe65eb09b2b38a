// A WebSocket that reconnects with backoff. It moves JSON; state.js and view.js
// decide what it means.
import { SUBPROTOCOL, parseServerMessage } from "./protocol.js";
import { metrics } from "./metrics.js";

export class Connection {
  /**
   * @param {string} url ws:// or wss:// URL of /ws
   * @param {{onOpen: () => void, onMessage: (m: object) => void, onStatus: (s: string) => void}} handlers
   */
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.delay = 250;
    this.socket = null;
    this.closedByUs = false;
    /** Closed while the page is hidden (left, or kept in the back/forward cache). */
    this.suspended = false;
    // Leaving the page leaves the collection: the others see the departure at once,
    // not when a heartbeat fails (a page kept in the back/forward cache would keep
    // its socket, and its place among the viewers, for minutes). Back from the
    // cache, it connects again and resumes where it was.
    this.onPageHide = () => {
      if (this.closedByUs) return;
      this.suspended = true;
      this.socket?.close(1000, "page hidden");
    };
    this.onPageShow = (event) => {
      if (!event.persisted || !this.suspended || this.closedByUs) return;
      this.suspended = false;
      this.open();
    };
    addEventListener("pagehide", this.onPageHide);
    addEventListener("pageshow", this.onPageShow);
    this.open();
  }

  open() {
    this.handlers.onStatus("connecting");
    const socket = new WebSocket(this.url, SUBPROTOCOL);
    this.socket = socket;
    socket.onopen = () => {
      this.delay = 250;
      this.handlers.onStatus("connected");
      this.handlers.onOpen();
    };
    socket.onmessage = (event) => {
      const start = metrics.enabled ? performance.now() : 0;
      let message;
      try {
        message = parseServerMessage(event.data);
        if (metrics.enabled) metrics.parsed = performance.now() - start;
      } catch (error) {
        console.warn(error);
        return;
      }
      this.handlers.onMessage(message);
      if (metrics.enabled) metrics.messages.push({ type: message.type, seq: message.seq, parse: metrics.parsed, apply: metrics.applied, ms: performance.now() - start });
    };
    socket.onclose = () => {
      if (this.socket !== socket || this.closedByUs || this.suspended) return;
      this.handlers.onStatus("reconnecting");
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 4000);
    };
  }

  /** Sends a message if connected; returns whether it went out. */
  send(message) {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closedByUs = true;
    removeEventListener("pagehide", this.onPageHide);
    removeEventListener("pageshow", this.onPageShow);
    this.socket?.close();
  }
}
