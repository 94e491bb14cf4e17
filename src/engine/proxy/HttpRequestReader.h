#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>

namespace wl {

// One HTTP/1.1 request as a client sent it to the proxy.
struct HttpRequest
{
    QByteArray method;
    QByteArray target;                          // path and query, as sent
    QList<QPair<QByteArray, QByteArray>> headers; // names as sent, in order
    QByteArray body;                            // de-chunked when it came chunked

    QByteArray header(QByteArrayView name) const; // case-insensitive; empty when absent
    bool keepAlive() const;                     // HTTP/1.1 unless "Connection: close"
};

// Reads requests from the bytes of one connection, incrementally and with limits, because the
// bytes come from any local program: a request line or header block that is too long, a body
// larger than the limit, a malformed length or chunk, are refused with the status the client
// gets (400, 413, 431, 501) before anything is forwarded.
class HttpRequestReader
{
public:
    struct Limits
    {
        qsizetype maxHeaderBytes = 64 * 1024;
        qsizetype maxBodyBytes = 64 * 1024 * 1024;
    };
    enum class State { NeedMore, Ready, Failed };

    HttpRequestReader() = default;
    explicit HttpRequestReader(Limits limits) : m_limits(limits) {}

    // Adds bytes; Ready when a whole request is there (take() it), Failed on bad input.
    State feed(QByteArrayView bytes);
    // The request read; the reader goes on with any bytes that followed it.
    HttpRequest take();
    // Bytes of a request that is not whole yet are waiting.
    bool hasPartialRequest() const { return m_headDone || !m_buffer.isEmpty(); }
    int failureStatus() const { return m_failureStatus; }
    QByteArray failureReason() const { return m_failureReason; }

private:
    State parse();
    State fail(int status, const char *reason);
    bool parseHead(QByteArrayView head);
    State readChunked();

    Limits m_limits;
    QByteArray m_buffer;
    HttpRequest m_request;
    bool m_headDone = false;
    bool m_chunked = false;
    qsizetype m_contentLength = 0;
    State m_state = State::NeedMore;
    int m_failureStatus = 0;
    QByteArray m_failureReason;
};

} // namespace wl
