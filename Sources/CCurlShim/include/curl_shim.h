#ifndef FLOW_CURL_SHIM_H
#define FLOW_CURL_SHIM_H
#include <stddef.h>

/// How a transfer ended, without libcurl's headers: the shim maps CURLcode onto these.
enum flow_http_outcome {
  FLOW_HTTP_OK = 0,
  FLOW_HTTP_TIMED_OUT = 1,
  FLOW_HTTP_CANNOT_CONNECT = 2,
  FLOW_HTTP_CONNECTION_LOST = 3,
  FLOW_HTTP_CANCELLED = 4,
  FLOW_HTTP_UNAVAILABLE = 5, /* libcurl could not be loaded */
  FLOW_HTTP_OTHER = 6,
  FLOW_HTTP_TOO_LARGE = 7, /* the body passed maximum_body_length; the transfer was stopped there */
};

/// A response: status, raw header lines of the last response, and the body. Buffers are malloc'ed;
/// free them with flow_http_response_free.
typedef struct {
  long status;
  char *headers;
  size_t headers_length;
  char *body;
  size_t body_length;
  char message[256];
} flow_http_response;

/// Performs one request with libcurl, which is loaded with dlopen on first use so that a run that never
/// makes a request never loads it (or the thirty libraries it pulls in). Blocks until done.
/// `headers` holds `header_count` "Name: value" strings. `cancelled` is polled during the transfer;
/// setting it to non-zero aborts. A body longer than `maximum_body_length` (0: no limit) stops the
/// transfer. Redirects are not followed (the caller decides).
int flow_http_perform(const char *method, const char *url, const char *const *headers, size_t header_count,
                      const void *body, size_t body_length, long timeout_milliseconds, size_t maximum_body_length,
                      const volatile int *cancelled, flow_http_response *response);

void flow_http_response_free(flow_http_response *response);

/// Called once with the status and the raw header lines of the final response, before the first body
/// bytes (or at the end when there is no body). Return non-zero to stop the transfer.
typedef int (*flow_http_head_callback)(void *context, long status, const char *headers, size_t headers_length);
/// Called with each piece of the body as it arrives. Return non-zero to stop the transfer.
typedef int (*flow_http_body_callback)(void *context, const char *bytes, size_t count);

/// Performs one request like flow_http_perform, but hands the response over as it arrives instead of
/// collecting it: for responses that stay open (server-sent events). `connect_timeout_milliseconds`
/// bounds the connection; `timeout_milliseconds` the whole transfer (0: no limit). A transfer a callback
/// stopped ends as FLOW_HTTP_CANCELLED. On failure, `message` (256 bytes) says why.
int flow_http_stream(const char *method, const char *url, const char *const *headers, size_t header_count,
                     const void *body, size_t body_length, long connect_timeout_milliseconds,
                     long timeout_milliseconds, const volatile int *cancelled, void *context,
                     flow_http_head_callback on_head, flow_http_body_callback on_body, char *message);

#endif
