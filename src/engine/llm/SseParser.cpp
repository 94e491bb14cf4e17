#include "SseParser.h"

#include <cstring>

namespace wl {

namespace {
constexpr char kBom[] = "\xEF\xBB\xBF";

bool allDigits(QByteArrayView value)
{
    if (value.isEmpty() || value.size() > 9)
        return false;
    for (char c : value) {
        if (c < '0' || c > '9')
            return false;
    }
    return true;
}
} // namespace

SseParser::SseParser(Handler handler)
    : m_handler(std::move(handler))
{
}

void SseParser::reset()
{
    m_partialLine.resize(0);
    m_data.resize(0);
    m_dataView = {};
    m_type.resize(0);
    m_lastId.resize(0);
    m_eventCount = 0;
    m_retryMs = -1;
    m_hasData = m_dataInView = m_skipLf = m_error = false;
    m_atStart = true;
}

void SseParser::feed(QByteArrayView chunk)
{
    if (m_error || chunk.isEmpty())
        return;
    const char *p = chunk.data();
    const char *const end = p + chunk.size();
    if (m_skipLf) {
        m_skipLf = false;
        if (*p == '\n')
            ++p;
    }
    while (p < end) {
        // Lines end at LF, CR or CRLF. memchr twice is still far faster than a byte loop.
        const char *nl = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
        const char *stop = nl ? nl : end;
        const char *cr = static_cast<const char *>(std::memchr(p, '\r', size_t(stop - p)));
        const char *eol = cr ? cr : nl;
        if (!eol) {
            if (m_partialLine.size() + (end - p) > m_maxEventBytes) {
                m_error = true;
                m_partialLine.resize(0);
                return;
            }
            m_partialLine.append(p, end - p);
            break;
        }
        if (m_partialLine.isEmpty()) {
            processLine(QByteArrayView(p, eol - p), true);
        } else {
            m_partialLine.append(p, eol - p);
            processLine(m_partialLine, false);
            m_partialLine.resize(0);
        }
        if (m_error)
            return;
        if (*eol == '\r') {
            if (eol + 1 < end) {
                if (eol[1] == '\n')
                    ++eol;
            } else {
                m_skipLf = true;
            }
        }
        p = eol + 1;
    }
    // The chunk's memory goes away after this call: keep what the pending event still needs.
    materializeData();
}

bool SseParser::finish()
{
    if (m_error)
        return false;
    m_skipLf = false;
    if (!m_partialLine.isEmpty()) {
        processLine(m_partialLine, false);
        m_partialLine.resize(0);
    }
    if (!m_hasData || m_error) {
        m_type.resize(0);
        return false;
    }
    dispatch();
    return true;
}

void SseParser::materializeData()
{
    if (!m_dataInView)
        return;
    m_data.resize(0);
    m_data.append(m_dataView);
    m_dataView = {};
    m_dataInView = false;
}

void SseParser::processLine(QByteArrayView line, bool inChunk)
{
    if (m_atStart) {
        m_atStart = false;
        if (line.startsWith(QByteArrayView(kBom, 3)))
            line = line.sliced(3);
    }
    if (line.isEmpty()) {
        dispatch();
        return;
    }
    if (line.front() == ':')
        return; // comment (servers send these as keep-alives)

    const qsizetype colon = line.indexOf(':');
    const QByteArrayView field = colon < 0 ? line : line.first(colon);
    QByteArrayView value = colon < 0 ? QByteArrayView() : line.sliced(colon + 1);
    if (value.startsWith(' '))
        value = value.sliced(1);

    if (field == "data") {
        if (!m_hasData) {
            m_hasData = true;
            if (inChunk) {
                m_dataView = value;
                m_dataInView = true;
            } else {
                m_data.resize(0);
                m_data.append(value);
            }
        } else {
            materializeData();
            m_data.append('\n');
            m_data.append(value);
        }
        if (m_data.size() > m_maxEventBytes) {
            m_error = true;
            m_data.resize(0);
        }
    } else if (field == "event") {
        m_type.resize(0);
        m_type.append(value);
    } else if (field == "id") {
        if (!value.contains('\0')) {
            m_lastId.resize(0);
            m_lastId.append(value);
        }
    } else if (field == "retry") {
        if (allDigits(value))
            m_retryMs = value.toInt();
    }
}

void SseParser::dispatch()
{
    if (!m_hasData) {
        m_type.resize(0);
        return;
    }
    const SseEvent event{m_type, m_dataInView ? m_dataView : QByteArrayView(m_data), m_lastId};
    ++m_eventCount;
    if (m_handler)
        m_handler(event);
    m_hasData = false;
    m_dataInView = false;
    m_dataView = {};
    m_data.resize(0);
    m_type.resize(0);
}

} // namespace wl
