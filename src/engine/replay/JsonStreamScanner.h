#pragma once

#include <QByteArray>
#include <QString>

#include <functional>
#include <vector>

class QIODevice;

namespace wl {

// Walks a stream of JSON text without building a document of it, so a 200 MB .traj or
// JSON array costs memory for one element at a time. It tracks string/escape state and
// nesting, checks the structure, and hands chosen values to a Handler as raw bytes that
// the caller parses with QJsonDocument::fromJson:
//   - every element of a top-level array;
//   - for a top-level object, each member the Handler asks for: the whole value, or (for
//     an array value) each element of it; other members are skipped without being kept.
// The input may hold several top-level values separated by whitespace (JSON Lines).
class JsonStreamScanner
{
public:
    enum class MemberMode { Skip, Value, Elements };

    struct Element
    {
        int topIndex = 0;       // which top-level value (the line, for JSON Lines)
        QString member;         // member of a top-level object; empty inside a top-level array
        qsizetype index = -1;   // element index in the array, -1 for a whole member value
        qint64 offset = 0;      // byte offset of the element's first byte
        qint64 line = 1;        // 1-based line of that byte
        QByteArray bytes;
    };

    class Handler
    {
    public:
        virtual ~Handler() = default;
        // A top-level object or array begins; return false to skip it whole.
        virtual bool beginTop(int topIndex, char type) { Q_UNUSED(topIndex) Q_UNUSED(type) return true; }
        // A member of a top-level object; decides what happens to its value.
        virtual MemberMode member(int topIndex, const QString &key) { Q_UNUSED(topIndex) Q_UNUSED(key) return MemberMode::Skip; }
        // Return false to stop scanning (run() then returns false with stopped() set).
        virtual bool element(Element &element) = 0;
        virtual bool endTop(int topIndex) { Q_UNUSED(topIndex) return true; }
    };

    JsonStreamScanner(QIODevice *device, qint64 maxElementBytes);

    // Called after each chunk with the device position; return false to stop (cancel).
    void setChunkCallback(std::function<bool(qint64 position)> callback) { m_chunkCallback = std::move(callback); }

    bool run(Handler &handler);
    bool stopped() const { return m_stopped; }
    // Translated description of the first error; errorOffset()/errorLine() locate it.
    QString errorString() const { return m_error; }
    qint64 errorOffset() const { return m_errorOffset; }
    qint64 errorLine() const { return m_errorLine; }
    int topLevelValues() const { return m_topIndex; }

private:
    enum State : unsigned char {
        ExpectValue,        // a value must come (after ':' or ',' in an array)
        ExpectValueOrEnd,   // right after '['
        ExpectKeyOrEnd,     // right after '{'
        ExpectKey,          // after ',' in an object
        ExpectColon,
        ExpectCommaOrEnd,
    };
    struct Frame
    {
        char type;          // '{' or '['
        State state;
    };

    bool fail(const QString &message, qint64 offset);
    bool beginValue(const char *buf, qsizetype i, char c);
    bool valueDone(const char *buf, qsizetype endExclusive);
    bool keyDone(const char *buf, qsizetype endExclusive);
    bool appendCapture(const char *buf, qsizetype from, qsizetype to);

    QIODevice *m_device;
    qint64 m_maxElementBytes;
    std::function<bool(qint64)> m_chunkCallback;
    Handler *m_handler = nullptr;

    std::vector<Frame> m_stack;
    State m_topState = ExpectValue;
    bool m_inString = false;
    bool m_escape = false;
    bool m_stringIsKey = false;
    bool m_inScalar = false;
    qint64 m_chunkBase = 0;   // device offset of buf[0]
    qint64 m_line = 1;

    int m_topIndex = 0;       // count of top-level values begun
    bool m_skipTop = false;
    QString m_memberKey;
    MemberMode m_memberMode = MemberMode::Skip;
    bool m_expandArray = false;    // current member's array elements are captured (depth 2)
    qsizetype m_elementIndex = 0;

    // Key capture (depth 1 of an object).
    bool m_keyCapture = false;
    qsizetype m_keyStart = 0;
    QByteArray m_keyBytes;

    // Element capture.
    bool m_capturing = false;
    size_t m_captureDepth = 0; // stack depth at which the captured value sits
    qsizetype m_captureStart = 0;
    Element m_element;

    bool m_stopped = false;
    QString m_error;
    qint64 m_errorOffset = -1;
    qint64 m_errorLine = -1;
};

} // namespace wl
