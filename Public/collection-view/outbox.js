// Edits and actions this page made, kept by op until the server answers them. Made
// while the connection is down, they wait (a bounded number) and go out, in order,
// when it is back; an edit that went out just before the connection was lost goes
// out again (the server answers a repeated op with its first answer, so it is never
// applied twice). An action that went out and got no answer is not sent again (it
// might be done twice): it is given up, and the page says so. No DOM here.

/** At most this many changes wait for the connection; past it a change is refused. */
export const OUTBOX_LIMIT = 50;

/** Messages the server answers once per op however often they come (edits by op). */
const IDEMPOTENT = new Set(["insert", "delete", "shuffle", "move", "reload"]);

export class Outbox {
  constructor(limit = OUTBOX_LIMIT) {
    this.limit = limit;
    /** op → {message, sent}: in the order they were made. */
    this.entries = new Map();
  }

  /** Changes not answered yet (waiting, or sent and unanswered). */
  get size() {
    return this.entries.size;
  }

  /** Changes waiting for the connection (not sent yet). */
  get waiting() {
    let n = 0;
    for (const e of this.entries.values()) if (!e.sent) n++;
    return n;
  }

  /**
   * Takes a message with an op: "send" (connected: send it now), "queued" (it waits
   * for the connection) or "full" (too many wait already: refuse it).
   */
  add(message, connected) {
    if (!message.op) throw new Error("an outbox message needs an op");
    if (!connected && this.waiting >= this.limit) return "full";
    this.entries.set(message.op, { message, sent: connected });
    // Sent ones are forgotten oldest first if answers never come (a server that lost them).
    if (this.entries.size > this.limit * 4) {
      for (const [op, e] of this.entries) {
        if (e.sent) { this.entries.delete(op); break; }
      }
    }
    return connected ? "send" : "queued";
  }

  /** The server answered `op` (ack, reject, actionResult): returns the message it settles, if it was kept. */
  settle(op) {
    const entry = op ? this.entries.get(op) : undefined;
    if (!entry) return null;
    this.entries.delete(op);
    return entry.message;
  }

  /**
   * The connection is back: `send`, what goes out now in the order it was made;
   * `lost`, actions that went out and got no answer (given up, not sent again).
   */
  resume() {
    const send = [];
    const lost = [];
    for (const [op, e] of this.entries) {
      if (!e.sent || IDEMPOTENT.has(e.message.type)) {
        e.sent = true;
        send.push(e.message);
      } else {
        this.entries.delete(op);
        lost.push(e.message);
      }
    }
    return { send, lost };
  }
}
