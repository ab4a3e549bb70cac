// libcurl through dlopen: loaded on the first request, not at start-up.
//
// The constants below are libcurl's stable ABI (soname 4, curl/curl.h): option and info numbers never
// change, so the build needs no curl headers, and the binary does not link libcurl.
#include "curl_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void CURL;
struct curl_slist;

enum {
  CURLOPT_WRITEDATA = 10001,
  CURLOPT_URL = 10002,
  CURLOPT_POSTFIELDS = 10015,
  CURLOPT_HTTPHEADER = 10023,
  CURLOPT_HEADERDATA = 10029,
  CURLOPT_CUSTOMREQUEST = 10036,
  CURLOPT_XFERINFODATA = 10057,
  CURLOPT_WRITEFUNCTION = 20011,
  CURLOPT_HEADERFUNCTION = 20079,
  CURLOPT_XFERINFOFUNCTION = 20219,
  CURLOPT_POSTFIELDSIZE_LARGE = 30120,
  CURLOPT_NOPROGRESS = 43,
  CURLOPT_NOBODY = 44,
  CURLOPT_FOLLOWLOCATION = 52,
  CURLOPT_NOSIGNAL = 99,
  CURLOPT_TIMEOUT_MS = 155,
  CURLOPT_CONNECTTIMEOUT_MS = 156,
  CURLOPT_ACCEPT_ENCODING = 10102,
  CURLINFO_RESPONSE_CODE = 0x200002,
  CURL_GLOBAL_ALL = 3,
};

enum {
  CURLE_OK = 0,
  CURLE_COULDNT_RESOLVE_PROXY = 5,
  CURLE_COULDNT_RESOLVE_HOST = 6,
  CURLE_COULDNT_CONNECT = 7,
  CURLE_PARTIAL_FILE = 18,
  CURLE_WRITE_ERROR = 23,
  CURLE_OPERATION_TIMEDOUT = 28,
  CURLE_ABORTED_BY_CALLBACK = 42,
  CURLE_GOT_NOTHING = 52,
  CURLE_SEND_ERROR = 55,
  CURLE_RECV_ERROR = 56,
};

typedef long long curl_off_t;
typedef int (*curl_global_init_fn)(long);
typedef CURL *(*curl_easy_init_fn)(void);
typedef int (*curl_easy_setopt_fn)(CURL *, int, ...);
typedef int (*curl_easy_perform_fn)(CURL *);
typedef int (*curl_easy_getinfo_fn)(CURL *, int, ...);
typedef void (*curl_easy_cleanup_fn)(CURL *);
typedef struct curl_slist *(*curl_slist_append_fn)(struct curl_slist *, const char *);
typedef void (*curl_slist_free_all_fn)(struct curl_slist *);
typedef const char *(*curl_easy_strerror_fn)(int);

static struct {
  curl_easy_init_fn easy_init;
  curl_easy_setopt_fn easy_setopt;
  curl_easy_perform_fn easy_perform;
  curl_easy_getinfo_fn easy_getinfo;
  curl_easy_cleanup_fn easy_cleanup;
  curl_slist_append_fn slist_append;
  curl_slist_free_all_fn slist_free_all;
  curl_easy_strerror_fn easy_strerror;
  int loaded;
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
  const char *names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl-nss.so.4", "libcurl.so"};
  void *library = NULL;
  for (size_t i = 0; i < sizeof names / sizeof names[0] && !library; i++) library = dlopen(names[i], RTLD_NOW);
  if (!library) return;
  curl_global_init_fn global_init = (curl_global_init_fn)dlsym(library, "curl_global_init");
  curl.easy_init = (curl_easy_init_fn)dlsym(library, "curl_easy_init");
  curl.easy_setopt = (curl_easy_setopt_fn)dlsym(library, "curl_easy_setopt");
  curl.easy_perform = (curl_easy_perform_fn)dlsym(library, "curl_easy_perform");
  curl.easy_getinfo = (curl_easy_getinfo_fn)dlsym(library, "curl_easy_getinfo");
  curl.easy_cleanup = (curl_easy_cleanup_fn)dlsym(library, "curl_easy_cleanup");
  curl.slist_append = (curl_slist_append_fn)dlsym(library, "curl_slist_append");
  curl.slist_free_all = (curl_slist_free_all_fn)dlsym(library, "curl_slist_free_all");
  curl.easy_strerror = (curl_easy_strerror_fn)dlsym(library, "curl_easy_strerror");
  if (!global_init || !curl.easy_init || !curl.easy_setopt || !curl.easy_perform || !curl.easy_getinfo ||
      !curl.easy_cleanup || !curl.slist_append || !curl.slist_free_all || !curl.easy_strerror)
    return;
  // Once per process and before any other thread uses libcurl: pthread_once guarantees both.
  if (global_init(CURL_GLOBAL_ALL) == CURLE_OK) curl.loaded = 1;
}

typedef struct {
  char *data;
  size_t length;
  size_t capacity;
  size_t limit;  /* the most bytes kept; 0 for no limit */
  int exceeded; /* set when a write would have gone past the limit */
} buffer;

static int append(buffer *target, const char *bytes, size_t count) {
  if (target->length + count + 1 > target->capacity) {
    size_t capacity = target->capacity ? target->capacity : 4096;
    while (capacity < target->length + count + 1) capacity *= 2;
    char *grown = realloc(target->data, capacity);
    if (!grown) return 0;
    target->data = grown;
    target->capacity = capacity;
  }
  memcpy(target->data + target->length, bytes, count);
  target->length += count;
  target->data[target->length] = 0;
  return 1;
}

static size_t write_body(char *bytes, size_t size, size_t count, void *target) {
  buffer *body = (buffer *)target;
  // Returning less than was given aborts the transfer: a body over the limit is never held in memory.
  if (body->limit && body->length + size * count > body->limit) {
    body->exceeded = 1;
    return 0;
  }
  return append(body, bytes, size * count) ? size * count : 0;
}

static size_t write_header(char *bytes, size_t size, size_t count, void *target) {
  buffer *headers = (buffer *)target;
  // A new status line (after a 100 Continue, say) starts the headers of the response that counts.
  if (size * count >= 5 && strncmp(bytes, "HTTP/", 5) == 0) headers->length = 0;
  return append(headers, bytes, size * count) ? size * count : 0;
}

static int progress(void *cancelled, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d) {
  (void)a, (void)b, (void)c, (void)d;
  return *(const volatile int *)cancelled ? 1 : 0;
}

/* What a failed transfer's curl code means to flow, alike for whole and streamed responses. */
static int failure_outcome(int code) {
  switch (code) {
  case CURLE_OPERATION_TIMEDOUT: return FLOW_HTTP_TIMED_OUT;
  case CURLE_COULDNT_RESOLVE_HOST:
  case CURLE_COULDNT_RESOLVE_PROXY:
  case CURLE_COULDNT_CONNECT: return FLOW_HTTP_CANNOT_CONNECT;
  case CURLE_PARTIAL_FILE:
  case CURLE_GOT_NOTHING:
  case CURLE_SEND_ERROR:
  case CURLE_RECV_ERROR: return FLOW_HTTP_CONNECTION_LOST;
  case CURLE_ABORTED_BY_CALLBACK: return FLOW_HTTP_CANCELLED;
  default: return FLOW_HTTP_OTHER;
  }
}

int flow_http_perform(const char *method, const char *url, const char *const *headers, size_t header_count,
                      const void *body, size_t body_length, long timeout_milliseconds, size_t maximum_body_length,
                      const volatile int *cancelled, flow_http_response *response) {
  memset(response, 0, sizeof *response);
  pthread_once(&load_once, load);
  if (!curl.loaded) {
    snprintf(response->message, sizeof response->message, "libcurl (libcurl4) is not installed");
    return FLOW_HTTP_UNAVAILABLE;
  }
  CURL *handle = curl.easy_init();
  if (!handle) return FLOW_HTTP_OTHER;
  struct curl_slist *list = NULL;
  for (size_t i = 0; i < header_count; i++) list = curl.slist_append(list, headers[i]);
  buffer received = {0}, header_lines = {0};
  received.limit = maximum_body_length;

  curl.easy_setopt(handle, CURLOPT_URL, url);
  curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
  curl.easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, "");
  if (strcmp(method, "HEAD") == 0) curl.easy_setopt(handle, CURLOPT_NOBODY, 1L);
  else if (strcmp(method, "GET") != 0) curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method);
  if (body) {
    curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
    curl.easy_setopt(handle, CURLOPT_POSTFIELDS, body);
  }
  if (list) curl.easy_setopt(handle, CURLOPT_HTTPHEADER, list);
  curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, timeout_milliseconds);
  curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, write_body);
  curl.easy_setopt(handle, CURLOPT_WRITEDATA, &received);
  curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, write_header);
  curl.easy_setopt(handle, CURLOPT_HEADERDATA, &header_lines);
  curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
  curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, progress);
  curl.easy_setopt(handle, CURLOPT_XFERINFODATA, (void *)cancelled);

  int code = curl.easy_perform(handle);
  long status = 0;
  curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
  curl.easy_cleanup(handle);
  curl.slist_free_all(list);

  int outcome;
  switch (code) {
  case CURLE_OK: outcome = FLOW_HTTP_OK; break;
  case CURLE_WRITE_ERROR: outcome = received.exceeded ? FLOW_HTTP_TOO_LARGE : FLOW_HTTP_OTHER; break;
  default: outcome = failure_outcome(code); break;
  }
  if (outcome != FLOW_HTTP_OK) {
    snprintf(response->message, sizeof response->message, "%s", curl.easy_strerror(code));
    free(received.data);
    free(header_lines.data);
    return outcome;
  }
  response->status = status;
  response->body = received.data;
  response->body_length = received.length;
  response->headers = header_lines.data;
  response->headers_length = header_lines.length;
  return FLOW_HTTP_OK;
}

void flow_http_response_free(flow_http_response *response) {
  free(response->body);
  free(response->headers);
  response->body = NULL;
  response->headers = NULL;
}

typedef struct {
  void *context;
  flow_http_head_callback on_head;
  flow_http_body_callback on_body;
  CURL *handle;
  buffer header_lines;
  int head_sent;
  int stopped; /* a callback asked to stop */
} stream_state;

static int send_head(stream_state *state) {
  if (state->head_sent) return 0;
  state->head_sent = 1;
  long status = 0;
  curl.easy_getinfo(state->handle, CURLINFO_RESPONSE_CODE, &status);
  return state->on_head(state->context, status, state->header_lines.data ? state->header_lines.data : "",
                        state->header_lines.length);
}

static size_t stream_body(char *bytes, size_t size, size_t count, void *target) {
  stream_state *state = (stream_state *)target;
  if (send_head(state) || state->on_body(state->context, bytes, size * count)) {
    state->stopped = 1;
    return 0;
  }
  return size * count;
}

int flow_http_stream(const char *method, const char *url, const char *const *headers, size_t header_count,
                     const void *body, size_t body_length, long connect_timeout_milliseconds,
                     long timeout_milliseconds, const volatile int *cancelled, void *context,
                     flow_http_head_callback on_head, flow_http_body_callback on_body, char *message) {
  message[0] = 0;
  pthread_once(&load_once, load);
  if (!curl.loaded) {
    snprintf(message, 256, "libcurl (libcurl4) is not installed");
    return FLOW_HTTP_UNAVAILABLE;
  }
  CURL *handle = curl.easy_init();
  if (!handle) return FLOW_HTTP_OTHER;
  struct curl_slist *list = NULL;
  for (size_t i = 0; i < header_count; i++) list = curl.slist_append(list, headers[i]);
  stream_state state = {context, on_head, on_body, handle, {0}, 0, 0};

  curl.easy_setopt(handle, CURLOPT_URL, url);
  curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
  // No compression: a compressed event stream arrives in blocks, not event by event.
  if (strcmp(method, "GET") != 0) curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method);
  if (body) {
    curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
    curl.easy_setopt(handle, CURLOPT_POSTFIELDS, body);
  }
  if (list) curl.easy_setopt(handle, CURLOPT_HTTPHEADER, list);
  curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, connect_timeout_milliseconds);
  curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, timeout_milliseconds);
  curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, stream_body);
  curl.easy_setopt(handle, CURLOPT_WRITEDATA, &state);
  curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, write_header);
  curl.easy_setopt(handle, CURLOPT_HEADERDATA, &state.header_lines);
  curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
  curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, progress);
  curl.easy_setopt(handle, CURLOPT_XFERINFODATA, (void *)cancelled);

  int code = curl.easy_perform(handle);
  int outcome;
  switch (code) {
  case CURLE_OK: outcome = send_head(&state) ? FLOW_HTTP_CANCELLED : FLOW_HTTP_OK; break;
  case CURLE_WRITE_ERROR: outcome = state.stopped ? FLOW_HTTP_CANCELLED : FLOW_HTTP_OTHER; break;
  default: outcome = failure_outcome(code); break;
  }
  if (code != CURLE_OK) snprintf(message, 256, "%s", curl.easy_strerror(code));
  curl.easy_cleanup(handle);
  curl.slist_free_all(list);
  free(state.header_lines.data);
  return outcome;
}
