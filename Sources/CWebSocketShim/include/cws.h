#ifndef CWS_SHIM_H
#define CWS_SHIM_H
// A small C shim over libwebsockets 4.1.6 for what Swift cannot import or
// cannot hold safely: function-like macros, 64-bit option masks, and the
// creation structs that lws keeps pointers into for the life of a context.
#include <libwebsockets.h>
#include <stddef.h>

/// Headroom lws needs before every payload it writes (LWS_PRE).
static inline size_t cws_pre(void) { return LWS_PRE; }

/// lws_write protocol flags for one fragment of a message.
static inline int cws_ws_flags(int binary, int is_start, int is_end) {
    return lws_write_ws_flags(binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT, is_start, is_end);
}

typedef int (*cws_callback)(struct lws *wsi, enum lws_callback_reasons reason,
                            void *user, void *in, size_t len);

/// Everything a server needs; strings are copied, so the caller's may die.
struct cws_server_config {
    const char *host;            // interface address, e.g. "127.0.0.1"; NULL = all
    int port;                    // 0 = kernel picks
    const char *tls_cert;        // PEM paths; both set = https/wss
    const char *tls_key;
    const char *ws_protocol;     // the default WebSocket subprotocol
    cws_callback callback;       // WebSocket callback
    cws_callback http_callback;  // HTTP callback (static files), or NULL
    void *user;                  // lws_context_user()
    size_t rx_chunk;             // receive chunk size (pt_serv_buf_size)
};

struct cws_server;

/// Creates a listening context; NULL on failure.
struct cws_server *cws_server_create(const struct cws_server_config *config);
struct lws_context *cws_server_context(struct cws_server *server);
/// The real listening port (after port 0 was asked for).
int cws_server_port(struct cws_server *server);
/// Destroys the context (CLOSED is delivered for live connections) and frees all copies.
void cws_server_destroy(struct cws_server *server);

struct cws_client;

/// A client context with no listener. ca_file may be NULL (system trust).
/// Only a TLS client asks lws for its global OpenSSL set-up: that set-up takes a
/// new process-wide ex_data index, which breaks handshakes running on other contexts.
struct cws_client *cws_client_create(const char *protocol, cws_callback callback,
                                     void *user, const char *ca_file, int tls);
struct lws_context *cws_client_context(struct cws_client *client);
/// Starts a connection; must be called on the thread that runs lws_service.
struct lws *cws_client_connect(struct cws_client *client, const char *host, int port,
                               const char *path, int tls, const char *protocol);
void cws_client_destroy(struct cws_client *client);

/// Default HTTP handling for reasons the HTTP callback does not take itself.
static inline int cws_http_default(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

/// Serves a file; returns what the HTTP callback should return.
int cws_serve_file(struct lws *wsi, const char *path, const char *content_type);
/// Answers with an error status and a short body; returns what the callback should return.
int cws_http_status(struct lws *wsi, unsigned int status, const char *message);

/// The request path of a connection ("" when unknown). Writes at most cap bytes.
int cws_request_path(struct lws *wsi, char *buffer, int cap);
/// The subprotocol bound to a connection.
const char *cws_protocol_name(struct lws *wsi);
/// Sends a close frame with code and reason on the next return of -1 from the callback.
void cws_close_reason(struct lws *wsi, int code, const char *reason);
#endif
