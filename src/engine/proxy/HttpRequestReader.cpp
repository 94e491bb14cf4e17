#include "HttpRequestReader.h"

namespace wl {

namespace {
bool isToken(QByteArrayView text)
{
    if (text.isEmpty())
        return false;
    for (char c : text) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
        if (!ok)
            return false;
    }
    return true;
}

bool hasControl(QByteArrayView text)
{
    for (char c : text)
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f)
            return true;
    return false;
}
} // namespace

QByteArray HttpRequest::header(QByteArrayView name) const
{
    for (const auto &h : headers)
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    return {};
}

bool HttpRequest::keepAlive() const
{
    return !header("connection").toLower().contains("close");
}

HttpRequestReader::State HttpRequestReader::feed(QByteArrayView bytes)
{
    if (m_state == State::Failed)
        return m_state;
    m_buffer.append(bytes);
    return m_state == State::Ready ? m_state : parse();
}

HttpRequest HttpRequestReader::take()
{
    HttpRequest request = std::move(m_request);
    m_request = {};
    m_headDone = false;
    m_chunked = false;
    m_contentLength = 0;
    m_state = State::NeedMore;
    if (!m_buffer.isEmpty())
        parse();
    return request;
}

HttpRequestReader::State HttpRequestReader::fail(int status, const char *reason)
{
    m_failureStatus = status;
    m_failureReason = reason;
    m_buffer.clear();
    return m_state = State::Failed;
}

HttpRequestReader::State HttpRequestReader::parse()
{
    if (!m_headDone) {
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0) {
            if (m_buffer.size() > m_limits.maxHeaderBytes)
                return fail(431, "request header too large");
            return m_state = State::NeedMore;
        }
        if (end + 4 > m_limits.maxHeaderBytes)
            return fail(431, "request header too large");
        if (!parseHead(QByteArrayView(m_buffer).first(end)))
            return m_state;
        m_buffer.remove(0, end + 4);
        m_headDone = true;
    }
    if (m_chunked)
        return readChunked();
    if (m_buffer.size() < m_contentLength)
        return m_state = State::NeedMore;
    m_request.body = m_buffer.left(m_contentLength);
    m_buffer.remove(0, m_contentLength);
    return m_state = State::Ready;
}

bool HttpRequestReader::parseHead(QByteArrayView head)
{
    const QList<QByteArray> lines = head.toByteArray().split('\n');
    QByteArray requestLine = lines.value(0);
    if (requestLine.endsWith('\r'))
        requestLine.chop(1);
    const QList<QByteArray> parts = requestLine.split(' ');
    if (parts.size() != 3 || !isToken(parts.at(0)) || !parts.at(1).startsWith('/') || hasControl(parts.at(1))
        || !parts.at(2).startsWith("HTTP/1.")) {
        fail(400, "malformed request line");
        return false;
    }
    m_request.method = parts.at(0);
    m_request.target = parts.at(1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        QByteArray line = lines.at(i);
        if (line.endsWith('\r'))
            line.chop(1);
        const qsizetype colon = line.indexOf(':');
        // No obsolete line folding, no space before the colon, no control characters: the
        // header is passed on to the provider, so nothing may smuggle a second header in.
        if (colon <= 0 || !isToken(QByteArrayView(line).first(colon)) || hasControl(line)) {
            fail(400, "malformed header");
            return false;
        }
        m_request.headers.append({line.left(colon), line.mid(colon + 1).trimmed()});
    }
    const QByteArray transfer = m_request.header("transfer-encoding").toLower();
    const QByteArray length = m_request.header("content-length");
    int lengths = 0;
    for (const auto &h : std::as_const(m_request.headers))
        lengths += h.first.compare("content-length", Qt::CaseInsensitive) == 0 ? 1 : 0;
    if (!transfer.isEmpty()) {
        if (transfer != "chunked" || lengths > 0) {
            fail(transfer == "chunked" ? 400 : 501, "unsupported transfer encoding");
            return false;
        }
        m_chunked = true;
        return true;
    }
    if (lengths > 1) {
        fail(400, "more than one content length");
        return false;
    }
    if (lengths == 1) {
        bool ok = false;
        const qlonglong value = length.toLongLong(&ok);
        if (!ok || value < 0 || length.startsWith('+') || length.startsWith('-')) {
            fail(400, "malformed content length");
            return false;
        }
        if (value > m_limits.maxBodyBytes) {
            fail(413, "request body too large");
            return false;
        }
        m_contentLength = qsizetype(value);
    }
    return true;
}

HttpRequestReader::State HttpRequestReader::readChunked()
{
    for (;;) {
        const qsizetype lineEnd = m_buffer.indexOf("\r\n");
        if (lineEnd < 0)
            return m_buffer.size() > 1024 ? fail(400, "malformed chunk") : (m_state = State::NeedMore);
        QByteArray sizeText = m_buffer.left(lineEnd);
        if (const qsizetype semicolon = sizeText.indexOf(';'); semicolon >= 0)
            sizeText.truncate(semicolon); // chunk extensions are ignored
        bool ok = false;
        const qlonglong size = sizeText.trimmed().toLongLong(&ok, 16);
        if (!ok || size < 0 || sizeText.trimmed().isEmpty())
            return fail(400, "malformed chunk");
        if (size > m_limits.maxBodyBytes - m_request.body.size())
            return fail(413, "request body too large");
        if (size == 0) {
            // Trailers (ignored) end with an empty line.
            const qsizetype end = m_buffer.indexOf("\r\n\r\n", lineEnd);
            if (end < 0)
                return m_buffer.size() > m_limits.maxHeaderBytes ? fail(431, "trailers too large") : (m_state = State::NeedMore);
            m_buffer.remove(0, end + 4);
            return m_state = State::Ready;
        }
        if (m_buffer.size() < lineEnd + 2 + size + 2)
            return m_state = State::NeedMore;
        if (QByteArrayView(m_buffer).sliced(lineEnd + 2 + size, 2) != "\r\n")
            return fail(400, "malformed chunk");
        m_request.body.append(QByteArrayView(m_buffer).sliced(lineEnd + 2, size));
        m_buffer.remove(0, lineEnd + 2 + size + 2);
    }
}

} // namespace wl
