#include "WaterlineImporter.h"

#include "ImportContext.h"
#include "model/BoundedInteger.h"
#include "model/MessageCodec.h"
#include "store/SessionExport.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>
#include <limits>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// Request indexes and header versions: positions, never beyond an int.
constexpr qint64 maxPosition = std::numeric_limits<int>::max();

class WaterlineReader
{
public:
    explicit WaterlineReader(ImportContext &context) : m_context(context) {}

    bool record(const QByteArray &line, qint64 lineNumber)
    {
        QJsonObject o;
        if (!m_context.parseObjectLine(line, lineNumber, &o))
            return true;
        const QString type = o.value("type"_L1).toString();
        if (!m_sawHeader) {
            if (type != "header"_L1 || o.value("format"_L1).toString() != SessionExport::formatName())
                return m_context.failAt(lineNumber, u"type"_s, QCoreApplication::translate("TranscriptImport", "expected a \"%1\" header line").arg(SessionExport::formatName()));
            QString why;
            const auto version = BoundedInteger::fromJson(o.value("version"_L1), 1, SessionExport::kFormatVersion, u"version"_s, &why);
            if (!version)
                return m_context.failAt(lineNumber, u"version"_s,
                                        QCoreApplication::translate("TranscriptImport", "%1: not an export format this version reads (1 to %2)")
                                            .arg(why)
                                            .arg(SessionExport::kFormatVersion));
            m_sawHeader = true;
            m_context.countRecord(type);
            const QString title = o.value("session"_L1).toObject().value("title"_L1).toString();
            if (!title.isEmpty())
                m_context.session().title = title;
            return true;
        }
        if (type == "message"_L1)
            return message(o, lineNumber);
        if (type == "request"_L1)
            return request(o, lineNumber);
        if (type == "checkpoint"_L1 || type == "offload"_L1 || type == "record"_L1 || type == "pin"_L1) {
            m_context.ignoreRecord(type);
            return true;
        }
        if (type == "end"_L1) {
            m_context.countRecord(type);
            m_sawEnd = true;
            return true;
        }
        m_context.skipRecord(lineNumber, u"type"_s, QCoreApplication::translate("TranscriptImport", "unknown line type '%1'").arg(type));
        return true;
    }

    bool finish()
    {
        if (!m_sawEnd) {
            // A cut-off export still gives what it holds; say so.
            m_context.skipRecord(0, u"end"_s, QCoreApplication::translate("TranscriptImport", "the file has no end line: it was cut off"));
        }
        auto &requests = m_context.session().requests;
        std::stable_sort(requests.begin(), requests.end(),
                         [](const ImportedRequest &a, const ImportedRequest &b) { return a.messageIndex < b.messageIndex; });
        return true;
    }

private:
    bool message(const QJsonObject &o, qint64 lineNumber)
    {
        QString why;
        std::optional<Message> m = MessageCodec::fromJson(o, &why);
        if (!m) {
            m_context.skipRecord(lineNumber, {}, why);
            return true;
        }
        m_context.countRecord(u"message"_s);
        m->isError = o.value("is_error"_L1).toBool();
        m->createdAt = ImportJson::timestamp(o.value("created_at"_L1));
        // The request that produced it; a damaged one only loses the usage of that request.
        const qint64 origin = m_context.count(o.value("origin"_L1), lineNumber, u"origin"_s);
        const bool assistant = m->role == Role::Assistant;
        if (m->role == Role::User)
            m_context.offerTitle(m->content);
        const int index = m_context.addMessage(std::move(*m));
        if (index < 0)
            return false;
        if (assistant && origin >= 0 && !m_producedBy.contains(origin))
            m_producedBy.insert(origin, index);
        return true;
    }

    bool request(const QJsonObject &o, qint64 lineNumber)
    {
        QString why;
        const auto index = BoundedInteger::fromJson(o.value("index"_L1), 0, maxPosition, u"index"_s, &why);
        if (!index) {
            m_context.skipRecord(lineNumber, u"index"_s, why);
            return true;
        }
        m_context.countRecord(u"request"_s);
        const auto produced = m_producedBy.constFind(*index);
        if (produced == m_producedBy.cend()) {
            // A failed call, or one whose answer was not kept: nothing to attach it to.
            m_context.ignoreRecord(u"request without a message"_s);
            return true;
        }
        ImportedRequest r;
        r.messageIndex = *produced;
        r.model = o.value("model"_L1).toString();
        r.timestamp = ImportJson::timestamp(o.value("started_at"_L1));
        const QJsonObject usage = o.value("usage"_L1).toObject();
        r.usage.input = m_context.count(usage.value("input"_L1), lineNumber, u"usage.input"_s);
        r.usage.output = m_context.count(usage.value("output"_L1), lineNumber, u"usage.output"_s);
        r.usage.cacheRead = m_context.count(usage.value("cache_read"_L1), lineNumber, u"usage.cache_read"_s);
        r.usage.cacheWrite = m_context.count(usage.value("cache_write"_L1), lineNumber, u"usage.cache_write"_s);
        m_context.addRequest(std::move(r));
        return true;
    }

    ImportContext &m_context;
    QHash<qint64, int> m_producedBy; // request index -> the assistant message it produced
    bool m_sawHeader = false;
    bool m_sawEnd = false;
};

} // namespace

WaterlineImporter::WaterlineImporter()
    : TranscriptImporter(u"waterline"_s, QT_TRANSLATE_NOOP("TranscriptImport", "Waterline session export"))
{
}

int WaterlineImporter::canRead(const TranscriptSample &sample) const
{
    const QJsonObject &r = sample.firstRecord;
    if (!r.isEmpty())
        return r.value("type"_L1).toString() == "header"_L1 && r.value("format"_L1).toString() == SessionExport::formatName()
                   ? 100 : 0;
    // A header line longer than the sample is unlikely, but the marker is unmistakable.
    if (sample.firstChar == '{' && sample.head.contains("\"format\":\"waterline-session\"")
        && sample.head.contains("\"type\":\"header\""))
        return 90;
    return 0;
}

bool WaterlineImporter::read(ImportContext &context) const
{
    WaterlineReader reader(context);
    return context.readRecords(reader);
}

} // namespace wl
