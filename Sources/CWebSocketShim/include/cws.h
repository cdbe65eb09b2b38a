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
    unsigned short max_header_bytes; // room for a request's URI and headers (lws drops past it)
    unsigned short ping_seconds;     // idle seconds before a ping; 0 = no heartbeat
    unsigned short hangup_seconds;   // seconds without a pong (or handshake) before closing
};

struct cws_server;

/// Creates a listening context; NULL on failure.
struct cws_server *cws_server_create(const struct cws_server_config *config);
struct lws_context *cws_server_context(struct cws_server *server);
/// The real listening port (after port 0 was asked for).
int cws_server_port(struct cws_server *server);
/// 1 when the server runs on libev's epoll loop, 0 on lws's poll() loop.
int cws_server_uses_epoll(struct cws_server *server);
/// One turn of the server's event loop: waits for events (or lws's next timer, or
/// lws_cancel_service) and services them. Returns -1 once the server cannot run.
int cws_server_service(struct cws_server *server);
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

/// What a connection lws gave up on as HTTP gets: 405 with `Allow: GET, HEAD`,
/// then it is closed (see cws.c: CONNECT, and methods lws does not know).
int cws_http_refuse_raw(struct lws *wsi, enum lws_callback_reasons reason);

/// Default HTTP handling for reasons the HTTP callback does not take itself.
static inline int cws_http_default(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    if (reason == LWS_CALLBACK_RAW_ADOPT || reason == LWS_CALLBACK_RAW_RX || reason == LWS_CALLBACK_RAW_WRITEABLE)
        return cws_http_refuse_raw(wsi, reason);
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

/// Checks a PEM certificate and private key before a server uses them: that each
/// file can be read and parsed, and that the key belongs to the certificate.
/// Returns 0, or -1 with a sentence naming the file and the problem in `error`.
int cws_check_tls_files(const char *cert, const char *key, char *error, int cap);

/// Serves a file with extra header lines ("name: value\r\n" each); returns what the
/// HTTP callback should return.
int cws_serve_file(struct lws *wsi, const char *path, const char *content_type, const char *headers);
/// Answers with `status`, extra header lines ("name: value\r\n" each) and a
/// plain-text body; keeps the connection for the next request when `keep_alive`.
/// Returns what the HTTP callback should return.
int cws_http_respond(struct lws *wsi, unsigned int status, const char *headers, const char *body, int keep_alive);
/// Answers with `status`, header lines ("name: value\r\n" each, content-type among
/// them) and `length` bytes of `body` (sent unless `send_body` is 0: a HEAD request),
/// with their content-length; keeps the connection for the next request. Returns what
/// the HTTP callback should return.
int cws_http_answer(struct lws *wsi, unsigned int status, const char *headers, const void *body, size_t length, int send_body);

/// Gzips `length` bytes at `input` into a malloc'd buffer (the caller frees it), its
/// size in *out_length; NULL when zlib fails.
unsigned char *cws_gzip(const void *input, size_t length, size_t *out_length);
/// The request's method (one of lws's LWSHUMETH_ values: GET 0, POST 1, OPTIONS 2,
/// PUT 3, PATCH 4, DELETE 5, CONNECT 6, HEAD 7), or -1; `uri_len` gets the URI's length.
int cws_request_method(struct lws *wsi, int *uri_len);
/// Bytes the request's known headers take (URI included).
int cws_request_header_bytes(struct lws *wsi);

/// Whether the request has header `token` at all, even empty (lws_hdr_copy
/// gives 0 for an empty header and an absent one alike).
int cws_header_present(struct lws *wsi, int token);

/// Bytes the kernel has received on socket `fd` so far (TCP_INFO), 0 if unknown.
unsigned long long cws_socket_bytes_received(int fd);

/// Bytes of the request target: the path and the query after its '?'.
int cws_request_target_bytes(struct lws *wsi);

/// Whether the request line said HTTP/1.0.
int cws_request_is_http10(struct lws *wsi);
/// Copies a request header (an lws token: WSI_TOKEN_…) into `buffer`; returns its
/// length, or 0 when absent or too long.
int cws_request_header(struct lws *wsi, int token, char *buffer, int cap);
/// Closes a connection at once, without flushing or a close frame (safe from any
/// callback on the service thread, even another connection's).
void cws_kill(struct lws *wsi);

/// HMAC-SHA256 of `data` under `key` into `out` (32 bytes), with the OpenSSL
/// libwebsockets already links; 0 on success.
int cws_hmac_sha256(const void *key, size_t key_length, const void *data, size_t length, unsigned char *out);

/// Whether two buffers of `length` bytes are equal, in time that does not depend
/// on where they differ (OpenSSL's CRYPTO_memcmp): 1 when equal.
int cws_equal_in_constant_time(const void *a, const void *b, size_t length);

/// Gives the allocator's free memory back to the system (glibc's malloc_trim):
/// freed send queues otherwise stay in its heap. Safe on any thread.
void cws_release_free_memory(void);
/// Answers with an error status and a short body; returns what the callback should return.
int cws_http_status(struct lws *wsi, unsigned int status, const char *message);

/// The request path of a connection ("" when unknown). Writes at most cap bytes.
int cws_request_path(struct lws *wsi, char *buffer, int cap);
/// The subprotocol bound to a connection.
const char *cws_protocol_name(struct lws *wsi);
/// Sends a close frame with code and reason on the next return of -1 from the callback.
void cws_close_reason(struct lws *wsi, int code, const char *reason);
#endif
