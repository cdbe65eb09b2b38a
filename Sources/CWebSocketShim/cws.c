#include "cws.h"
#include <pthread.h>
#include <stdlib.h>
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
    char *strings[8];
};

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


    struct lws_context_creation_info *i = &s->info;
    i->port = c->port;
    i->iface = host;
    i->protocols = s->protocols;
    i->pvo = &s->pvo;
    i->user = c->user;
    i->pt_serv_buf_size = c->rx_chunk > 4096 ? (unsigned int)c->rx_chunk : 4096;
    i->options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE;
    if (host && strchr(host, ':') == NULL)
        i->options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    if (cert && key) {
        i->options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        i->ssl_cert_filepath = cert;
        i->ssl_private_key_filepath = key;
        i->alpn = "http/1.1";
    }
    i->vhost_name = "default";
    s->context = create_locked(i);
    if (!s->context) {
        cws_server_destroy(s);
        return NULL;
    }
    return s;
}

struct lws_context *cws_server_context(struct cws_server *s) { return s->context; }

int cws_server_port(struct cws_server *s) {
    struct lws_vhost *vh = lws_get_vhost_by_name(s->context, "default");
    return vh ? lws_get_vhost_listen_port(vh) : -1;
}

void cws_server_destroy(struct cws_server *s) {
    if (!s) return;
    if (s->context) destroy_locked(s->context);
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
    ci.origin = host;
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

int cws_serve_file(struct lws *wsi, const char *path, const char *content_type) {
    static const char headers[] = "cache-control: no-cache\r\n";
    int n = lws_serve_http_file(wsi, path, content_type, headers, (int)sizeof(headers) - 1);
    if (n < 0 || (n > 0 && lws_http_transaction_completed(wsi)))
        return -1;
    return 0;
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
