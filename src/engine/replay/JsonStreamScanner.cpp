#include "JsonStreamScanner.h"

#include <QCoreApplication>
#include <QIODevice>
#include <QJsonArray>
#include <QJsonDocument>

namespace wl {

namespace {
constexpr qint64 chunkBytes = 1 << 20;
constexpr qsizetype keepCapacityBytes = 1 << 20; // larger element buffers are released after use

bool isScalarStart(char c)
{
    return c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n';
}

bool isScalarChar(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '-' || c == '.';
}

} // namespace

JsonStreamScanner::JsonStreamScanner(QIODevice *device, qint64 maxElementBytes)
    : m_device(device)
    , m_maxElementBytes(maxElementBytes)
{
    m_stack.reserve(64);
}

bool JsonStreamScanner::fail(const QString &message, qint64 offset)
{
    m_error = message;
    m_errorOffset = offset;
    m_errorLine = m_line;
    return false;
}

bool JsonStreamScanner::run(Handler &handler)
{
    m_handler = &handler;
    QByteArray chunk(chunkBytes, Qt::Uninitialized);
    for (;;) {
        const qint64 n = m_device->read(chunk.data(), chunk.size());
        if (n < 0)
            return fail(QCoreApplication::translate("JsonStreamScanner", "read error: %1").arg(m_device->errorString()), m_chunkBase);
        if (n == 0)
            break;
        const char *buf = chunk.constData();
        for (qsizetype i = 0; i < n; ++i) {
            if (m_inString) {
                while (i < n) {
                    const auto ch = static_cast<unsigned char>(buf[i]);
                    if (m_escape)
                        m_escape = false;
                    else if (ch == '\\')
                        m_escape = true;
                    else if (ch == '"')
                        break;
                    else if (ch < 0x20)
                        return fail(ch == '\n' ? QCoreApplication::translate("JsonStreamScanner", "line break inside a string (truncated value?)")
                                               : QCoreApplication::translate("JsonStreamScanner", "control character inside a string"),
                                    m_chunkBase + i);
                    ++i;
                }
                if (i == n)
                    break; // the string continues in the next chunk
                m_inString = false;
                if (m_stringIsKey) {
                    if (!keyDone(buf, i))
                        return false;
                } else if (!valueDone(buf, i + 1)) {
                    return false;
                }
                continue;
            }
            const char c = buf[i];
            if (m_inScalar) {
                if (isScalarChar(c))
                    continue;
                m_inScalar = false;
                if (!valueDone(buf, i))
                    return false;
            }
            switch (c) {
            case ' ':
            case '\t':
            case '\r':
                break;
            case '\n':
                ++m_line;
                break;
            case '{':
            case '[':
                if (!beginValue(buf, i, c))
                    return false;
                m_stack.push_back({c, c == '{' ? ExpectKeyOrEnd : ExpectValueOrEnd});
                break;
            case '}':
            case ']': {
                if (m_stack.empty())
                    return fail(QCoreApplication::translate("JsonStreamScanner", "unexpected '%1'").arg(QLatin1Char(c)), m_chunkBase + i);
                const Frame f = m_stack.back();
                const bool ok = c == '}' ? (f.type == '{' && (f.state == ExpectKeyOrEnd || f.state == ExpectCommaOrEnd))
                                         : (f.type == '[' && (f.state == ExpectValueOrEnd || f.state == ExpectCommaOrEnd));
                if (!ok)
                    return fail(QCoreApplication::translate("JsonStreamScanner", "unexpected '%1'").arg(QLatin1Char(c)), m_chunkBase + i);
                m_stack.pop_back();
                if (!valueDone(buf, i + 1))
                    return false;
                break;
            }
            case ':':
                if (m_stack.empty() || m_stack.back().state != ExpectColon)
                    return fail(QCoreApplication::translate("JsonStreamScanner", "unexpected ':'"), m_chunkBase + i);
                m_stack.back().state = ExpectValue;
                break;
            case ',':
                if (m_stack.empty() || m_stack.back().state != ExpectCommaOrEnd)
                    return fail(QCoreApplication::translate("JsonStreamScanner", "unexpected ','"), m_chunkBase + i);
                m_stack.back().state = m_stack.back().type == '{' ? ExpectKey : ExpectValue;
                break;
            case '"':
                if (!m_stack.empty() && m_stack.back().type == '{'
                    && (m_stack.back().state == ExpectKeyOrEnd || m_stack.back().state == ExpectKey)) {
                    m_stack.back().state = ExpectColon;
                    m_stringIsKey = true;
                    if (m_stack.size() == 1 && !m_skipTop) {
                        m_keyCapture = true;
                        m_keyStart = i + 1;
                        m_keyBytes.clear();
                    }
                } else {
                    if (!beginValue(buf, i, c))
                        return false;
                    m_stringIsKey = false;
                }
                m_inString = true;
                break;
            default:
                if (!isScalarStart(c))
                    return fail(QCoreApplication::translate("JsonStreamScanner", "unexpected character '%1'").arg(QLatin1Char(c)), m_chunkBase + i);
                if (!beginValue(buf, i, c))
                    return false;
                m_inScalar = true;
                break;
            }
        }
        if (m_capturing) {
            if (!appendCapture(buf, m_captureStart, n))
                return false;
            m_captureStart = 0;
        }
        if (m_keyCapture) {
            m_keyBytes.append(buf + m_keyStart, n - m_keyStart);
            m_keyStart = 0;
        }
        m_chunkBase += n;
        if (m_chunkCallback && !m_chunkCallback(m_chunkBase)) {
            m_stopped = true;
            return false;
        }
    }
    if (m_inString || m_inScalar || !m_stack.empty())
        return fail(QCoreApplication::translate("JsonStreamScanner", "unexpected end of input (truncated JSON)"), m_chunkBase);
    return true;
}

bool JsonStreamScanner::beginValue(const char *buf, qsizetype i, char c)
{
    Q_UNUSED(buf)
    if (m_stack.empty()) {
        if (c != '{' && c != '[')
            return fail(QCoreApplication::translate("JsonStreamScanner", "expected an object or an array"), m_chunkBase + i);
        const int index = m_topIndex++;
        m_skipTop = !m_handler->beginTop(index, c);
        m_expandArray = false;
        m_elementIndex = 0;
        return true;
    }
    Frame &f = m_stack.back();
    if (f.state != ExpectValue && !(f.type == '[' && f.state == ExpectValueOrEnd))
        return fail(QCoreApplication::translate("JsonStreamScanner", "unexpected value"), m_chunkBase + i);
    f.state = ExpectCommaOrEnd;
    if (m_capturing || m_skipTop)
        return true;

    const size_t depth = m_stack.size();
    bool capture = false;
    if (depth == 1) {
        if (f.type == '[') {
            capture = true;
            m_element.member.clear();
            m_element.index = m_elementIndex++;
        } else if (m_memberMode == MemberMode::Value || (m_memberMode == MemberMode::Elements && c != '[')) {
            capture = true;
            m_element.member = m_memberKey;
            m_element.index = -1;
        } else if (m_memberMode == MemberMode::Elements) {
            m_expandArray = true;
            m_elementIndex = 0;
        }
    } else if (depth == 2 && m_expandArray) {
        capture = true;
        m_element.member = m_memberKey;
        m_element.index = m_elementIndex++;
    }
    if (capture) {
        m_capturing = true;
        m_captureDepth = depth;
        m_captureStart = i;
        m_element.topIndex = m_topIndex - 1;
        m_element.offset = m_chunkBase + i;
        m_element.line = m_line;
        if (m_element.bytes.capacity() > keepCapacityBytes)
            m_element.bytes = QByteArray();
        else
            m_element.bytes.clear();
    }
    return true;
}

bool JsonStreamScanner::appendCapture(const char *buf, qsizetype from, qsizetype to)
{
    m_element.bytes.append(buf + from, to - from);
    if (m_element.bytes.size() > m_maxElementBytes)
        return fail(QCoreApplication::translate("JsonStreamScanner", "a single JSON element is larger than %1 MB").arg(m_maxElementBytes / (1024 * 1024)),
                    m_element.offset);
    return true;
}

bool JsonStreamScanner::valueDone(const char *buf, qsizetype endExclusive)
{
    const size_t depth = m_stack.size();
    if (m_capturing && depth == m_captureDepth) {
        if (!appendCapture(buf, m_captureStart, endExclusive))
            return false;
        m_capturing = false;
        if (!m_handler->element(m_element)) {
            m_stopped = true;
            return false;
        }
    }
    if (depth == 1 && m_stack.back().type == '{')
        m_expandArray = false;
    if (depth == 0) {
        const bool skipped = m_skipTop;
        m_skipTop = false;
        m_memberMode = MemberMode::Skip;
        if (!skipped && !m_handler->endTop(m_topIndex - 1)) {
            m_stopped = true;
            return false;
        }
    }
    return true;
}

bool JsonStreamScanner::keyDone(const char *buf, qsizetype endExclusive)
{
    if (!m_keyCapture)
        return true;
    m_keyCapture = false;
    m_keyBytes.append(buf + m_keyStart, endExclusive - m_keyStart);
    QString key;
    if (!m_keyBytes.contains('\\')) {
        key = QString::fromUtf8(m_keyBytes);
    } else {
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[\"" + m_keyBytes + "\"]"));
        key = doc.array().at(0).toString();
    }
    m_memberKey = key;
    m_memberMode = m_handler->member(m_topIndex - 1, key);
    return true;
}

} // namespace wl
