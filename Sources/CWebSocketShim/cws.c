#include "cws.h"
#include <ev.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <errno.h>
#include <zlib.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <malloc.h>
#include <string.h>

// Contexts are created and destroyed one at a time in a process: lws's global
// TLS set-up (LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT) is not safe to run from
// several threads at once (seen as sporadic "SSL err" when tests start clients
// in parallel).
static pthread_mutex_t context_lock = PTHREAD_MUTEX_INITIALIZER;

static struct lws_context *create_locked(const struct lws_context_creation_info *info) {
    pthread_mutex_lock(&context_lock);
    struct lws_context *context = lws_create_context(info);
    pthread_mutex_unlock(&context_lock);
    return context;
}

static void destroy_locked(struct lws_context *context) {
    pthread_mutex_lock(&context_lock);
    lws_context_destroy(context);
    pthread_mutex_unlock(&context_lock);
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

struct cws_server {
    struct lws_context *context;
    struct lws_context_creation_info info;
    struct lws_protocols protocols[3];
    struct lws_protocol_vhost_options pvo_default;
    struct lws_protocol_vhost_options pvo;
    struct lws_protocol_vhost_options headers[4];
    lws_retry_bo_t heartbeat;
    char *strings[8];
    struct ev_loop *loop;        // the libev loop lws runs on (epoll), ours to turn
    void *foreign_loops[1];
    ev_timer tick;               // wakes lws to run its due timers (see cws_server_create)
};

// lws 4.1.6's libev plugin re-arms its one timer with ev_timer_set and ev_timer_start
// while it may still be running: libev ignores both then, so a timer lws wants sooner
// than the one pending (a heartbeat's ping, a close's timeout) waited for the old one,
// up to half a minute. lws also runs its due timers after every readable or writable
// connection, so this tick, a wake-up through lws's own pipe four times a second, runs
// them at most a quarter of a second late on a server with nothing else to do.
static const ev_tstamp tick_seconds = 0.25;

static void tick_cb(struct ev_loop *loop, ev_timer *timer, int revents) {
    (void)loop; (void)revents;
    struct cws_server *s = timer->data;
    if (s->context) lws_cancel_service(s->context);
}

// TLS 1.2 with forward-secret AEAD suites only (no static RSA, no CBC); TLS 1.3's
// own suites are all modern.
static const char tls12_ciphers[] =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
    "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";
static const char tls13_ciphers[] = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256";

struct cws_server *cws_server_create(const struct cws_server_config *c) {
    struct cws_server *s = calloc(1, sizeof(*s));
    if (!s) return NULL;
    char *host = dup_or_null(c->host);
    char *cert = dup_or_null(c->tls_cert), *key = dup_or_null(c->tls_key);
    char *proto = dup_or_null(c->ws_protocol);
    s->strings[0] = host; s->strings[2] = cert;
    s->strings[3] = key; s->strings[4] = proto;

    // protocols[0] is HTTP, then the WebSocket protocol (the default one).
    s->protocols[0].name = "http";
    s->protocols[0].callback = c->http_callback ? c->http_callback : lws_callback_http_dummy;
    s->protocols[0].user = c->user;
    s->protocols[1].name = proto;
    s->protocols[1].callback = c->callback;
    s->protocols[1].per_session_data_size = sizeof(unsigned long long);
    s->protocols[1].rx_buffer_size = c->rx_chunk;

    // A client that offers no subprotocol is bound to ours, not to "http".
    s->pvo_default.name = "default";
    s->pvo_default.value = "";
    s->pvo.name = proto;
    s->pvo.options = &s->pvo_default;
    s->pvo.value = "";

    // Sent with every HTTP response (the page's CSP is per response: it names the host).
    int h = 0;
    s->headers[h].name = "x-content-type-options:"; s->headers[h++].value = "nosniff";
    s->headers[h].name = "x-frame-options:"; s->headers[h++].value = "deny";
    s->headers[h].name = "referrer-policy:"; s->headers[h++].value = "same-origin";
    if (cert && key) { s->headers[h].name = "strict-transport-security:"; s->headers[h++].value = "max-age=31536000"; }
    for (int n = 0; n + 1 < h; n++) s->headers[n].next = &s->headers[n + 1];

    struct lws_context_creation_info *i = &s->info;
    i->port = c->port;
    i->iface = host;
    i->protocols = s->protocols;
    i->pvo = &s->pvo;
    i->user = c->user;
    i->pt_serv_buf_size = c->rx_chunk > 4096 ? (unsigned int)c->rx_chunk : 4096;
    i->headers = &s->headers[0];
    i->max_http_header_data = c->max_header_bytes ? c->max_header_bytes : 4096;
    if (c->ping_seconds && c->hangup_seconds > c->ping_seconds) {
        // lws pings a connection idle for ping_seconds and closes it when no pong
        // came back hangup_seconds after the last one.
        s->heartbeat.secs_since_valid_ping = c->ping_seconds;
        s->heartbeat.secs_since_valid_hangup = c->hangup_seconds;
        i->retry_and_idle_policy = &s->heartbeat;
    }
    i->options = LWS_SERVER_OPTION_VALIDATE_UTF8;
    if (host && strchr(host, ':') == NULL)
        i->options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    if (cert && key) {
        i->options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        i->ssl_cert_filepath = cert;
        i->ssl_private_key_filepath = key;
        i->alpn = "http/1.1";
        i->ssl_cipher_list = tls12_ciphers;
        i->tls1_3_plus_cipher_list = tls13_ciphers;
        i->ssl_options_set = SSL_OP_NO_SSLv2 | SSL_OP_NO_SSLv3 | SSL_OP_NO_TLSv1 | SSL_OP_NO_TLSv1_1 | SSL_OP_CIPHER_SERVER_PREFERENCE;
    }
    // A request whose method lws does not know (TRACE, garbage) becomes a raw
    // connection of the HTTP protocol, which answers 405 and closes (as lws 4.1.6
    // does by itself with CONNECT) instead of lws's 403. Not with TLS: there it
    // needs plain text allowed on the TLS port.
    if (!(cert && key)) {
        i->options |= LWS_SERVER_OPTION_FALLBACK_TO_APPLY_LISTEN_ACCEPT_CONFIG;
        i->listen_accept_role = "raw-skt";
        i->listen_accept_protocol = "http";
    }
    i->vhost_name = "default";
    // libev's epoll, not lws's own poll(): a turn of poll() walks every connection
    // (each socket cold after an idle gap), a turn of epoll only the ready ones. The
    // loop is ours (lws's "foreign" loop) so that a turn ends and returns; lws 4.1.6's
    // own libev loop runs until the context goes. Without lws's libev plugin
    // (libwebsockets-evlib-ev), lws's poll() loop serves instead.
    s->loop = ev_loop_new(EVBACKEND_EPOLL | EVFLAG_NOSIGMASK);
    if (s->loop) {
        s->foreign_loops[0] = s->loop;
        i->foreign_loops = s->foreign_loops;
        i->options |= LWS_SERVER_OPTION_LIBEV;
        s->context = create_locked(i);
        if (!s->context) {
            ev_loop_destroy(s->loop);
            s->loop = NULL;
            i->foreign_loops = NULL;
            i->options &= ~(uint64_t)LWS_SERVER_OPTION_LIBEV;
        }
    }
    if (!s->context) s->context = create_locked(i);
    if (!s->context) {
        cws_server_destroy(s);
        return NULL;
    }
    if (s->loop) {
        // On a foreign loop lws 4.1.6 leaves its protocols' set-up (which reads the pvo
        // naming our protocol the default) to a later turn of the loop: a client with
        // no subprotocol that connected before it was bound to the HTTP protocol and
        // heard nothing more (a conformance test, one run in ten on a busy machine).
        // Done now, before the first connection can be accepted.
        if (lws_protocol_init(s->context)) {
            cws_server_destroy(s);
            return NULL;
        }
        ev_timer_init(&s->tick, tick_cb, tick_seconds, tick_seconds);
        s->tick.data = s;
        ev_timer_start(s->loop, &s->tick);
    }
    return s;
}

struct lws_context *cws_server_context(struct cws_server *s) { return s->context; }

int cws_server_port(struct cws_server *s) {
    struct lws_vhost *vh = lws_get_vhost_by_name(s->context, "default");
    return vh ? lws_get_vhost_listen_port(vh) : -1;
}

int cws_server_uses_epoll(struct cws_server *s) { return s->loop != NULL; }

int cws_server_service(struct cws_server *s) {
    if (!s->context) return -1;
    if (!s->loop) return lws_service(s->context, 0);
    ev_run(s->loop, EVRUN_ONCE);
    return 0;
}

void cws_server_destroy(struct cws_server *s) {
    if (!s) return;
    if (s->loop) ev_timer_stop(s->loop, &s->tick);
    if (s->context) destroy_locked(s->context);
    if (s->loop) ev_loop_destroy(s->loop);
    for (int n = 0; n < 8; n++) free(s->strings[n]);
    free(s);
}

struct cws_client {
    struct lws_context *context;
    struct lws_context_creation_info info;
    struct lws_protocols protocols[2];
    char *protocol;
    char *ca_file;
};

struct cws_client *cws_client_create(const char *protocol, cws_callback callback,
                                     void *user, const char *ca_file, int tls) {
    struct cws_client *c = calloc(1, sizeof(*c));
    if (!c) return NULL;
    c->protocol = strdup(protocol);
    c->ca_file = dup_or_null(ca_file);
    c->protocols[0].name = c->protocol;
    c->protocols[0].callback = callback;
    c->protocols[0].per_session_data_size = sizeof(unsigned long long);
    c->info.port = CONTEXT_PORT_NO_LISTEN;
    c->info.protocols = c->protocols;
    c->info.user = user;
    c->info.options = tls ? LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT : 0;
    c->info.client_ssl_ca_filepath = c->ca_file;
    c->info.alpn = "http/1.1";
    c->context = create_locked(&c->info);
    if (!c->context) {
        cws_client_destroy(c);
        return NULL;
    }
    return c;
}

struct lws_context *cws_client_context(struct cws_client *c) { return c->context; }

struct lws *cws_client_connect(struct cws_client *c, const char *host, int port,
                               const char *path, int tls, const char *protocol) {
    struct lws_client_connect_info ci;
    memset(&ci, 0, sizeof(ci));
    ci.context = c->context;
    ci.address = host;
    ci.port = port;
    ci.path = path;
    ci.host = host;
    ci.origin = NULL;   /* a tool, not a page: no Origin header (the server checks pages' origins) */
    ci.protocol = protocol;
    ci.local_protocol_name = c->protocol;
    ci.ssl_connection = tls ? LCCSCF_USE_SSL : 0;
    ci.alpn = "http/1.1";
    return lws_client_connect_via_info(&ci);
}

void cws_client_destroy(struct cws_client *c) {
    if (!c) return;
    if (c->context) destroy_locked(c->context);
    free(c->protocol);
    free(c->ca_file);
    free(c);
}

static int tls_problem(char *error, int cap, const char *what, const char *path) {
    unsigned long e = ERR_get_error();
    char reason[160] = "";
    if (e) ERR_error_string_n(e, reason, sizeof(reason));
    snprintf(error, (size_t)cap, "%s %s%s%s", what, path, e ? ": " : "", reason);
    ERR_clear_error();
    return -1;
}

int cws_check_tls_files(const char *cert, const char *key, char *error, int cap) {
    FILE *f = fopen(cert, "r");
    if (!f) { snprintf(error, (size_t)cap, "cannot read the certificate %s: %s", cert, strerror(errno)); return -1; }
    X509 *x = PEM_read_X509(f, NULL, NULL, NULL);
    fclose(f);
    if (!x) return tls_problem(error, cap, "no PEM certificate in", cert);
    f = fopen(key, "r");
    if (!f) {
        X509_free(x);
        snprintf(error, (size_t)cap, "cannot read the private key %s: %s", key, strerror(errno));
        return -1;
    }
    EVP_PKEY *k = PEM_read_PrivateKey(f, NULL, NULL, NULL);
    fclose(f);
    if (!k) { X509_free(x); return tls_problem(error, cap, "no PEM private key (or one with a passphrase) in", key); }
    int ok = X509_check_private_key(x, k);
    EVP_PKEY_free(k);
    X509_free(x);
    if (!ok) {
        ERR_clear_error();
        snprintf(error, (size_t)cap, "the private key %s does not belong to the certificate %s", key, cert);
        return -1;
    }
    return 0;
}

int cws_serve_file(struct lws *wsi, const char *path, const char *content_type, const char *headers) {
    int n = lws_serve_http_file(wsi, path, content_type, headers, (int)strlen(headers));
    if (n < 0 || (n > 0 && lws_http_transaction_completed(wsi)))
        return -1;
    return 0;
}

int cws_http_respond(struct lws *wsi, unsigned int status, const char *headers, const char *body, int keep_alive) {
    size_t hl = strlen(headers), bl = strlen(body);
    size_t cap = LWS_PRE + 1024 + hl + bl;
    unsigned char *buffer = malloc(cap);
    if (!buffer) return -1;
    unsigned char *start = buffer + LWS_PRE, *p = start, *end = buffer + cap - bl - 1;
    char length[24];
    int n = snprintf(length, sizeof(length), "%zu", bl);
    // A 304 has no body, and no content headers of its own (they would describe the file).
    int failed = lws_add_http_header_status(wsi, status, &p, end)
        || (status != 304 && lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE, (const unsigned char *)"text/plain; charset=utf-8", 25, &p, end))
        || (status != 304 && lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH, (const unsigned char *)length, n, &p, end));
    if (!failed && hl <= (size_t)(end - p)) { memcpy(p, headers, hl); p += hl; } else failed = 1;
    if (!failed) failed = lws_finalize_http_header(wsi, &p, end);
    if (!failed) {
        memcpy(p, body, bl);
        p += bl;
        int len = (int)(p - start);
        failed = lws_write(wsi, start, (size_t)len, LWS_WRITE_HTTP_FINAL) != len;
    }
    free(buffer);
    if (failed || !keep_alive) return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

int cws_http_answer(struct lws *wsi, unsigned int status, const char *headers, const void *body, size_t length, int send_body) {
    size_t hl = strlen(headers), bl = send_body ? length : 0;
    size_t cap = LWS_PRE + 1024 + hl + bl;
    unsigned char *buffer = malloc(cap);
    if (!buffer) return -1;
    unsigned char *start = buffer + LWS_PRE, *p = start, *end = buffer + cap - bl - 1;
    char count[24];
    int n = snprintf(count, sizeof(count), "%zu", length);
    int failed = lws_add_http_header_status(wsi, status, &p, end)
        || lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH, (const unsigned char *)count, n, &p, end);
    if (!failed && hl <= (size_t)(end - p)) { memcpy(p, headers, hl); p += hl; } else failed = 1;
    if (!failed) failed = lws_finalize_http_header(wsi, &p, end);
    if (!failed) {
        if (bl) { memcpy(p, body, bl); p += bl; }
        int len = (int)(p - start);
        failed = lws_write(wsi, start, (size_t)len, LWS_WRITE_HTTP_FINAL) != len;
    }
    free(buffer);
    if (failed) return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

int cws_request_method(struct lws *wsi, int *uri_len) {
    char *uri = NULL;
    int len = 0;
    int method = lws_http_get_uri_and_method(wsi, &uri, &len);
    if (uri_len) *uri_len = len;
    return method;
}

int cws_request_header_bytes(struct lws *wsi) {
    int total = 0;
    for (int t = 0; t < WSI_TOKEN_COUNT; t++) {
        int n = lws_hdr_total_length(wsi, (enum lws_token_indexes)t);
        if (n > 0) total += n;
    }
    return total;
}

int cws_request_header(struct lws *wsi, int token, char *buffer, int cap) {
    if (lws_hdr_total_length(wsi, (enum lws_token_indexes)token) >= cap) { if (cap > 0) buffer[0] = 0; return 0; }
    int n = lws_hdr_copy(wsi, buffer, cap, (enum lws_token_indexes)token);
    if (n < 0) { if (cap > 0) buffer[0] = 0; return 0; }
    return n;
}

void cws_kill(struct lws *wsi) {
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

int cws_http_status(struct lws *wsi, unsigned int status, const char *message) {
    lws_return_http_status(wsi, status, message);
    return -1;
}

int cws_request_path(struct lws *wsi, char *buffer, int cap) {
    int n = lws_hdr_copy(wsi, buffer, cap, WSI_TOKEN_GET_URI);
    if (n < 0) { if (cap > 0) buffer[0] = 0; return 0; }
    return n;
}

const char *cws_protocol_name(struct lws *wsi) {
    const struct lws_protocols *p = lws_get_protocol(wsi);
    return p && p->name ? p->name : "";
}

void cws_close_reason(struct lws *wsi, int code, const char *reason) {
    size_t n = reason ? strlen(reason) : 0;
    if (n > 120) n = 120;
    lws_close_reason(wsi, (enum lws_close_status)code, (unsigned char *)reason, n);
}

void cws_release_free_memory(void) {
    malloc_trim(0);
}

int cws_header_present(struct lws *wsi, int token) {
    if (lws_hdr_total_length(wsi, (enum lws_token_indexes)token) > 0) return 1;
    // Empty: lws keeps a fragment of length 0, which copies (an absent one fails).
    char c = 0;
    return lws_hdr_copy_fragment(wsi, &c, 1, (enum lws_token_indexes)token, 0) == 0;
}

int cws_request_target_bytes(struct lws *wsi) {
    char *uri = NULL;
    int len = 0;
    (void)lws_http_get_uri_and_method(wsi, &uri, &len);
    int args = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS);
    return len + (args > 0 ? args + 1 : 0);
}

int cws_request_is_http10(struct lws *wsi) {
    // lws answers in the request's version and keeps that version to itself: its
    // status line, written into a scratch buffer, says which it was.
    unsigned char scratch[LWS_PRE + 1024];
    unsigned char *p = scratch + LWS_PRE, *start = p;
    if (lws_add_http_header_status(wsi, 200, &p, scratch + sizeof(scratch))) return 0;
    return p - start >= 8 && memcmp(start, "HTTP/1.0", 8) == 0;
}

// lws 4.1.6 takes a CONNECT request as a raw tunnel of the HTTP protocol (and, with
// the fallback option above, a request whose method it does not know): nothing
// more would happen on it, and it stayed open for minutes. It is answered 405 at
// its first writable moment and closed.
int cws_http_refuse_raw(struct lws *wsi, enum lws_callback_reasons reason) {
    if (reason != LWS_CALLBACK_RAW_WRITEABLE) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    static const char body[] = "only GET and HEAD are served here\n";
    char answer[LWS_PRE + 512];
    int n = snprintf(answer + LWS_PRE, sizeof(answer) - LWS_PRE,
                     "HTTP/1.1 405 Method Not Allowed\r\nallow: GET, HEAD\r\ncontent-type: text/plain; charset=utf-8\r\n"
                     "content-length: %zu\r\nx-content-type-options: nosniff\r\nconnection: close\r\n\r\n%s",
                     sizeof(body) - 1, body);
    (void)lws_write(wsi, (unsigned char *)answer + LWS_PRE, (size_t)n, LWS_WRITE_RAW);
    return -1;
}

int cws_hmac_sha256(const void *key, size_t key_length, const void *data, size_t length, unsigned char *out) {
    unsigned int written = 0;
    if (!HMAC(EVP_sha256(), key, (int)key_length, data, length, out, &written)) return -1;
    return written == 32 ? 0 : -1;
}

int cws_equal_in_constant_time(const void *a, const void *b, size_t length) {
    return CRYPTO_memcmp(a, b, length) == 0;
}

unsigned char *cws_gzip(const void *input, size_t length, size_t *out_length) {
    z_stream s;
    memset(&s, 0, sizeof(s));
    // windowBits 15 + 16: a gzip wrapper, as Content-Encoding: gzip wants.
    if (deflateInit2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return NULL;
    uLong bound = deflateBound(&s, (uLong)length) + 32;
    unsigned char *out = malloc(bound);
    if (!out) { deflateEnd(&s); return NULL; }
    s.next_in = (Bytef *)input;
    s.avail_in = (uInt)length;
    s.next_out = out;
    s.avail_out = (uInt)bound;
    int done = deflate(&s, Z_FINISH);
    *out_length = (size_t)s.total_out;
    deflateEnd(&s);
    if (done != Z_STREAM_END) { free(out); return NULL; }
    return out;
}
