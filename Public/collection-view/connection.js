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
      if (this.socket !== socket || this.closedByUs) return;
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
    this.socket?.close();
  }
}
