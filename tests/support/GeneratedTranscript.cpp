#include "GeneratedTranscript.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTimeZone>
#include <QUuid>

using namespace Qt::StringLiterals;

namespace wl::test {

namespace {

const char *const kWords[] = {"src", "main", "build", "test", "error", "warning", "return", "const", "value", "file",
                              "line", "passed", "failed", "include", "struct", "class", "int", "qint64", "session",
                              "request", "message", "view", "range", "the", "of", "to", "in", "is", "and", "for"};

class Writer
{
public:
    Writer(QFile &file, quint32 seed) : m_file(file), m_random(seed) {}

    QString uuid()
    {
        // Seeded, not QUuid::createUuid(): the same seed gives the same file.
        const quint64 a = m_random.generate64(), b = m_random.generate64();
        return QUuid(uint(a), ushort(a >> 32), ushort(a >> 48), uchar(b), uchar(b >> 8), uchar(b >> 16), uchar(b >> 24),
                     uchar(b >> 32), uchar(b >> 40), uchar(b >> 48), uchar(b >> 56))
            .toString(QUuid::WithoutBraces);
    }

    QString text(int bytes)
    {
        QString out;
        out.reserve(bytes + 16);
        int column = 0;
        while (out.size() < bytes) {
            const QLatin1StringView word(kWords[m_random.bounded(int(std::size(kWords)))]);
            out += word;
            column += int(word.size()) + 1;
            if (column > 72) {
                out += u'\n';
                column = 0;
            } else {
                out += u' ';
            }
        }
        return out;
    }

    int bounded(int low, int high) { return int(m_random.bounded(low, high)); }

    // One record: the envelope Claude Code puts around every line.
    bool record(const QString &type, const QJsonObject &message)
    {
        const QString id = uuid();
        QJsonObject line{{u"parentUuid"_s, m_parent.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(m_parent)},
                         {u"isSidechain"_s, false},
                         {u"userType"_s, u"external"_s},
                         {u"cwd"_s, u"/home/USER/projects/generated"_s},
                         {u"sessionId"_s, m_session},
                         {u"version"_s, u"2.1.39"_s},
                         {u"type"_s, type},
                         {u"message"_s, message},
                         {u"uuid"_s, id},
                         {u"timestamp"_s, m_time.toString(Qt::ISODateWithMs)}};
        m_parent = id;
        m_time = m_time.addMSecs(bounded(800, 9000));
        const QByteArray bytes = QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
        m_written += bytes.size();
        return m_file.write(bytes) == bytes.size();
    }

    bool user(const QJsonValue &content)
    {
        return record(u"user"_s, QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, content}});
    }

    bool assistant(const QJsonArray &content, qint64 contextBytes)
    {
        // What the provider would report: the whole context read (mostly from the cache), a
        // short answer.
        const qint64 context = 9000 + contextBytes / 4;
        const qint64 fresh = std::min<qint64>(context, bounded(200, 3000));
        const QJsonObject usage{{u"input_tokens"_s, 3},
                                {u"cache_creation_input_tokens"_s, fresh},
                                {u"cache_read_input_tokens"_s, context - fresh - 3},
                                {u"output_tokens"_s, bounded(20, 400)}};
        const QJsonObject message{{u"model"_s, u"claude-opus-4-6"_s},
                                  {u"id"_s, QString(u"msg_gen_"_s + QString::number(++m_responses))},
                                  {u"type"_s, u"message"_s},
                                  {u"role"_s, u"assistant"_s},
                                  {u"content"_s, content},
                                  {u"stop_reason"_s, QJsonValue(QJsonValue::Null)},
                                  {u"usage"_s, usage}};
        return record(u"assistant"_s, message);
    }

    void start() { m_session = uuid(); }
    qint64 written() const { return m_written; }

private:
    QFile &m_file;
    QRandomGenerator m_random;
    QString m_session;
    QString m_parent;
    QDateTime m_time = QDateTime(QDate(2026, 2, 11), QTime(20, 31, 53), QTimeZone::UTC);
    qint64 m_written = 0;
    qint64 m_responses = 0;
};

} // namespace

qint64 writeClaudeCodeTranscript(const QString &path, int exchanges, quint32 seed)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return -1;
    Writer w(file, seed);
    w.start();
    qint64 context = 0; // bytes of the conversation so far, for the usage it reports
    bool ok = true;
    for (int i = 0; i < exchanges && ok; ++i) {
        if (i % 25 == 0) {
            const QString prompt = w.text(w.bounded(40, 600));
            context += prompt.size();
            ok = w.user(prompt);
            const QString answer = w.text(w.bounded(60, 400));
            context += answer.size();
            ok = ok && w.assistant(QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, answer}}}, context);
        }
        const QString callId = u"toolu_gen_"_s + QString::number(i);
        QJsonObject call{{u"type"_s, u"tool_use"_s}, {u"id"_s, callId}};
        switch (w.bounded(0, 3)) {
        case 0:
            call.insert(u"name"_s, u"Bash"_s);
            call.insert(u"input"_s, QJsonObject{{u"command"_s, w.text(w.bounded(10, 120))},
                                                {u"description"_s, w.text(w.bounded(10, 40))}});
            break;
        case 1:
            call.insert(u"name"_s, u"Read"_s);
            call.insert(u"input"_s, QJsonObject{{u"file_path"_s, u"/home/USER/projects/generated/src/file%1.cpp"_s.arg(i % 300)}});
            break;
        default:
            call.insert(u"name"_s, u"Edit"_s);
            call.insert(u"input"_s, QJsonObject{{u"file_path"_s, u"/home/USER/projects/generated/src/file%1.cpp"_s.arg(i % 300)},
                                                {u"old_string"_s, w.text(w.bounded(20, 200))},
                                                {u"new_string"_s, w.text(w.bounded(20, 200))}});
            break;
        }
        context += 200;
        ok = ok && w.assistant(QJsonArray{call}, context);
        // Mostly short results, now and then a long one: about 850 bytes on average.
        const int resultBytes = w.bounded(0, 10) == 0 ? w.bounded(2000, 5000) : w.bounded(100, 1000);
        const QString result = w.text(resultBytes);
        context += result.size();
        ok = ok && w.user(QJsonArray{QJsonObject{{u"tool_use_id"_s, callId}, {u"type"_s, u"tool_result"_s}, {u"content"_s, result}}});
    }
    if (!ok || !file.flush())
        return -1;
    return w.written();
}

} // namespace wl::test
