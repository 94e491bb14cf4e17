#include "ImportContext.h"

#include "ImportTitle.h"
#include "TranscriptImporter.h"

#include "LoggingCategories.h"
#include "model/BoundedInteger.h"
#include "model/BoundedLineReader.h"
#include "model/MessageCodec.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QIODevice>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr int maxProblems = 200;
constexpr qint64 progressStep = 1 << 20;

} // namespace

ImportContext::ImportContext(QIODevice *device, const QString &sourceName, const ImportOptions &options,
                             ImportedSession *session)
    : m_device(device)
    , m_source(sourceName)
    , m_options(options)
    , m_session(session)
{
    if (!device->isSequential())
        m_total = device->size();
}

bool ImportContext::fail(const QString &error)
{
    if (m_error.isEmpty())
        m_error = error;
    return false;
}

bool ImportContext::failAt(qint64 line, const QString &field, const QString &what)
{
    if (field.isEmpty())
        return fail(QCoreApplication::translate("TranscriptImport", "%1: %2").arg(location(line), what));
    return fail(QCoreApplication::translate("TranscriptImport", "%1: field '%2': %3").arg(location(line), field, what));
}

bool ImportContext::failAtOffset(qint64 offset, qint64 line, const QString &what)
{
    return fail(QCoreApplication::translate("TranscriptImport", "%1:%2 (byte %3): %4").arg(m_source).arg(line).arg(offset).arg(what));
}

QString ImportContext::location(qint64 line) const
{
    return line > 0 ? m_source + u':' + QString::number(line) : m_source;
}

void ImportContext::skipRecord(qint64 line, const QString &field, const QString &what)
{
    ++m_session->skippedLines;
    if (m_session->problems.size() < maxProblems) {
        m_session->problems.append(field.isEmpty() ? QCoreApplication::translate("TranscriptImport", "%1: %2").arg(location(line), what)
                                                   : QCoreApplication::translate("TranscriptImport", "%1: field '%2': %3").arg(location(line), field, what));
    } else if (m_session->problems.size() == maxProblems) {
        m_session->problems.append(QCoreApplication::translate("TranscriptImport", "... further problems not listed"));
    }
    qCDebug(lcReplay) << "skipped" << location(line) << field << what;
}

qint64 ImportContext::count(const QJsonValue &value, qint64 line, const QString &field)
{
    if (value.isUndefined() || value.isNull())
        return -1;
    QString error;
    const auto read = BoundedInteger::fromJson(value, 0, BoundedInteger::maxTokens, field, &error);
    if (read)
        return *read;
    ++m_session->rejectedNumbers;
    if (m_session->numberProblems.size() < maxProblems)
        m_session->numberProblems.append(QCoreApplication::translate("TranscriptImport", "%1: field %2; read as not reported").arg(location(line), error));
    return -1;
}

void ImportContext::note(int messageIndex, const QString &text, const QString &callId)
{
    m_session->issues.append({ImportIssue::Kind::Note, messageIndex, callId, text});
}

int ImportContext::addMessage(Message &&message)
{
    const int index = m_session->messageCount;
    for (const ToolCall &call : std::as_const(message.toolCalls)) {
        ++m_session->toolCallCount;
        if (call.id.isEmpty()) {
            m_session->issues.append({ImportIssue::Kind::CallWithoutResult, index, call.id,
                                      QCoreApplication::translate("TranscriptImport", "call to '%1' has no id and cannot be answered").arg(call.name)});
        } else if (m_openCalls.contains(call.id)) {
            note(index, QCoreApplication::translate("TranscriptImport", "call id '%1' is used again before its result").arg(call.id), call.id);
            m_openCalls.insert(call.id, index);
        } else if (m_answeredCalls.remove(call.id)) {
            // Ids only need to be unique among open calls; a reused id pairs with its next result.
            note(index, QCoreApplication::translate("TranscriptImport", "call id '%1' is reused after it was answered").arg(call.id), call.id);
            m_openCalls.insert(call.id, index);
        } else {
            m_openCalls.insert(call.id, index);
        }
    }
    if (message.isToolResult()) {
        ++m_session->toolResultCount;
        if (m_openCalls.remove(message.toolCallId)) {
            m_answeredCalls.insert(message.toolCallId);
        } else if (m_answeredCalls.contains(message.toolCallId)) {
            m_session->issues.append({ImportIssue::Kind::DuplicateResult, index, message.toolCallId,
                                      QCoreApplication::translate("TranscriptImport", "second result for call '%1'").arg(message.toolCallId)});
        } else {
            m_session->issues.append({ImportIssue::Kind::ResultForUnknownCall, index, message.toolCallId,
                                      QCoreApplication::translate("TranscriptImport", "result for unknown call '%1'").arg(message.toolCallId)});
        }
    }
    if (!message.createdAt.isValid())
        message.createdAt = m_recordTime;
    message.cacheBytes();
    if (m_options.sink) {
        QString error;
        if (!m_options.sink->addMessage(std::move(message), &error)) {
            fail(QCoreApplication::translate("TranscriptImport", "%1: message %2 could not be stored: %3").arg(m_source).arg(index).arg(error));
            return -1;
        }
    } else {
        m_session->messages.append(std::move(message));
    }
    ++m_session->messageCount;
    return index;
}

void ImportContext::offerTitle(const QString &text)
{
    if (m_session->title.isEmpty())
        m_session->title = ImportTitle::fromUserText(text);
}

TranscriptSample ImportContext::peekSample() const
{
    return TranscriptSample::fromBytes(m_device->peek(TranscriptSample::sampleBytes), m_source);
}

void ImportContext::finish()
{
    for (auto it = m_openCalls.cbegin(); it != m_openCalls.cend(); ++it) {
        m_session->issues.append({ImportIssue::Kind::CallWithoutResult, it.value(), it.key(),
                                  QCoreApplication::translate("TranscriptImport", "call '%1' has no result").arg(it.key())});
    }
    m_openCalls.clear();
    // Models named once for the whole file (a header after the messages) apply to every call.
    if (m_session->model.isEmpty()) {
        for (const ImportedRequest &r : std::as_const(m_session->requests)) {
            if (!r.model.isEmpty()) {
                m_session->model = r.model;
                break;
            }
        }
    }
    for (ImportedRequest &r : m_session->requests) {
        if (r.model.isEmpty())
            r.model = m_session->model;
    }
    if (m_session->title.isEmpty())
        m_session->title = QFileInfo(m_source).completeBaseName();
    std::stable_sort(m_session->issues.begin(), m_session->issues.end(),
                     [](const ImportIssue &a, const ImportIssue &b) {
                         return a.messageIndex != b.messageIndex ? a.messageIndex < b.messageIndex : a.callId < b.callId;
                     });
}

bool ImportContext::keepGoing(qint64 position)
{
    if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) {
        m_cancelled = true;
        return fail(QCoreApplication::translate("TranscriptImport", "%1: import cancelled").arg(m_source));
    }
    if (m_options.progress && (position - m_lastProgress >= progressStep || position == m_total)) {
        m_lastProgress = position;
        m_options.progress(position, m_total);
    }
    return true;
}

bool ImportContext::readLines(const std::function<bool(const QByteArray &, qint64)> &record)
{
    BoundedLineReader in(m_device, m_options.maxRecordBytes);
    QByteArray line;
    while (in.next(&line) == BoundedLineReader::Status::Line) {
        if (!keepGoing(in.consumed()))
            return false;
        const bool blank = std::all_of(line.cbegin(), line.cend(), [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
        if (!blank && !record(line, in.lineNumber()))
            return false;
    }
    if (in.status() != BoundedLineReader::Status::End)
        return failAt(in.lineNumber(), {}, in.errorString());
    if (m_options.progress)
        m_options.progress(in.consumed(), m_total);
    return m_error.isEmpty();
}

bool ImportContext::parseObjectLine(const QByteArray &line, qint64 lineNumber, QJsonObject *object)
{
    if (line.contains('\0')) {
        skipRecord(lineNumber, {}, QCoreApplication::translate("TranscriptImport", "binary data (NUL byte)"));
        return false;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError) {
        skipRecord(lineNumber, {}, QCoreApplication::translate("TranscriptImport", "invalid JSON at column %1: %2").arg(error.offset + 1).arg(error.errorString()));
        return false;
    }
    if (!doc.isObject()) {
        skipRecord(lineNumber, {}, QCoreApplication::translate("TranscriptImport", "expected a JSON object"));
        return false;
    }
    *object = doc.object();
    return true;
}

bool ImportContext::scanJson(JsonStreamScanner::Handler &handler, int *topLevelValues,
                             const std::function<bool()> &tolerable)
{
    JsonStreamScanner scanner(m_device, m_options.maxRecordBytes);
    scanner.setChunkCallback([this](qint64 position) { return keepGoing(position); });
    const bool ok = scanner.run(handler);
    if (topLevelValues)
        *topLevelValues = scanner.topLevelValues();
    if (!m_error.isEmpty())
        return false;
    if (!ok && !scanner.stopped()) {
        if (!tolerable || !tolerable())
            return failAtOffset(scanner.errorOffset(), scanner.errorLine(), scanner.errorString());
        skipRecord(scanner.errorLine(), {}, QCoreApplication::translate("TranscriptImport", "%1 (byte %2)").arg(scanner.errorString()).arg(scanner.errorOffset()));
    }
    if (m_options.progress)
        m_options.progress(m_device->pos(), m_total);
    return true;
}

void ImportContext::skipElement(const JsonStreamScanner::Element &element, const QString &field, const QString &what)
{
    const QString where = QCoreApplication::translate("TranscriptImport", "%1 (byte %2)").arg(location(element.line)).arg(element.offset);
    ++m_session->skippedLines;
    if (m_session->problems.size() < maxProblems) {
        m_session->problems.append(field.isEmpty() ? QCoreApplication::translate("TranscriptImport", "%1: %2").arg(where, what)
                                                   : QCoreApplication::translate("TranscriptImport", "%1: field '%2': %3").arg(where, field, what));
    }
}

bool ImportContext::parseElement(const JsonStreamScanner::Element &element, QJsonObject *object)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(element.bytes, &error);
    if (error.error != QJsonParseError::NoError) {
        skipElement(element, element.member, QCoreApplication::translate("TranscriptImport", "invalid JSON: %1").arg(error.errorString()));
        return false;
    }
    if (!doc.isObject()) {
        skipElement(element, element.member, QCoreApplication::translate("TranscriptImport", "expected an object"));
        return false;
    }
    *object = doc.object();
    return true;
}

namespace ImportJson {

QString string(const QJsonObject &object, QLatin1StringView key)
{
    return object.value(key).toString();
}

QDateTime timestamp(const QJsonValue &value)
{
    if (value.isDouble()) {
        // Unix seconds up to the year 9999; anything else (1e300, NaN, negative) is no time.
        const double seconds = value.toDouble();
        if (!std::isfinite(seconds) || seconds < 0 || seconds > 253402300799.0)
            return {};
        return QDateTime::fromMSecsSinceEpoch(qint64(seconds * 1000.0), QTimeZone::UTC);
    }
    const QString text = value.toString();
    if (text.isEmpty())
        return {};
    QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!t.isValid()) {
        // Python's isoformat() writes microseconds; Qt wants at most milliseconds.
        static const QRegularExpression micro(u"(\\.\\d{3})\\d+"_s);
        QString trimmed = text;
        trimmed.replace(micro, u"\\1"_s);
        t = QDateTime::fromString(trimmed, Qt::ISODateWithMs);
    }
    return t;
}

QString contentText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (!value.isArray())
        return {};
    QString out;
    for (const QJsonValue &part : value.toArray()) {
        QString text;
        if (part.isString()) {
            text = part.toString();
        } else {
            const QJsonObject o = part.toObject();
            const QString type = o.value("type"_L1).toString();
            if (o.value("text"_L1).isString())
                text = o.value("text"_L1).toString();
            else if (type.contains("image"_L1))
                text = u"[image]"_s;
        }
        if (text.isEmpty())
            continue;
        if (!out.isEmpty())
            out += u'\n';
        out += text;
    }
    return out;
}

QString compact(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    if (value.isUndefined() || value.isNull())
        return {};
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

QString typeName(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null: return u"null"_s;
    case QJsonValue::Bool: return u"boolean"_s;
    case QJsonValue::Double: return u"number"_s;
    case QJsonValue::String: return u"string"_s;
    case QJsonValue::Array: return u"array"_s;
    case QJsonValue::Object: return u"object"_s;
    case QJsonValue::Undefined: break;
    }
    return u"missing"_s;
}

} // namespace ImportJson
} // namespace wl
