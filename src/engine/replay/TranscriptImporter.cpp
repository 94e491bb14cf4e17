#include "TranscriptImporter.h"

#include "ImportContext.h"
#include "LoggingCategories.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStringDecoder>

namespace wl {

namespace {
constexpr qint64 checkBytes = 64 * 1024;

// A head cut at an arbitrary byte may end inside a UTF-8 sequence; drop that tail.
QByteArrayView withoutCutSequence(QByteArrayView head)
{
    qsizetype end = head.size();
    int continuation = 0;
    while (end > 0 && continuation < 3 && (static_cast<unsigned char>(head[end - 1]) & 0xC0) == 0x80) {
        --end;
        ++continuation;
    }
    if (end > 0 && static_cast<unsigned char>(head[end - 1]) >= 0xC0)
        --end;
    else
        end = head.size();
    return head.first(end);
}
} // namespace

TranscriptImporter::TranscriptImporter(const QString &id, const char *displayName)
    : m_id(id)
    , m_displayName(displayName)
{
}

QString TranscriptImporter::id() const
{
    return m_id;
}

QString TranscriptImporter::displayName() const
{
    return QCoreApplication::translate("TranscriptImport", m_displayName);
}

TranscriptSample TranscriptSample::fromBytes(const QByteArray &head, const QString &fileName)
{
    TranscriptSample sample;
    sample.fileName = fileName;
    sample.head = head;
    qsizetype start = head.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    while (start < head.size() && QChar::isSpace(uchar(head.at(start))))
        ++start;
    if (start < head.size())
        sample.firstChar = head.at(start);
    if (sample.firstChar == '{') {
        const qsizetype newline = head.indexOf('\n', start);
        if (newline > 0) {
            const QJsonDocument doc = QJsonDocument::fromJson(head.mid(start, newline - start));
            if (doc.isObject())
                sample.firstRecord = doc.object();
        } else if (head.size() < sampleBytes) {
            // The whole file is one line.
            const QJsonDocument doc = QJsonDocument::fromJson(head.mid(start));
            if (doc.isObject())
                sample.firstRecord = doc.object();
        }
    }
    return sample;
}

bool TranscriptSample::isUtf8(QByteArrayView head, bool complete)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString decoded = decoder.decode(complete ? head : withoutCutSequence(head));
    return !decoder.hasError();
}

int TranscriptImporter::canReadFolder(const QString &) const
{
    return 0;
}

bool TranscriptImporter::readFolder(ImportContext &context, const QString &path) const
{
    return context.fail(QCoreApplication::translate("TranscriptImport", "%1: is a folder, not a transcript file").arg(path));
}

ImportResult TranscriptImporter::importFolder(const QString &path, const ImportOptions &options) const
{
    ImportResult result;
    result.session.sourceFormat = id();
    result.session.sourcePath = path;
    QBuffer nothing; // the folder's files are read one by one
    nothing.open(QIODevice::ReadOnly);
    ImportContext context(&nothing, path, options, &result.session);
    const bool ok = readFolder(context, path);
    complete(context, ok, &result);
    return result;
}

ImportResult TranscriptImporter::importFile(const QString &path, const ImportOptions &options) const
{
    if (QFileInfo(path).isDir())
        return importFolder(path, options);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        ImportResult result;
        result.error = QCoreApplication::translate("TranscriptImport", "%1: cannot open: %2").arg(path, file.errorString());
        return result;
    }
    return import(&file, path, options);
}

ImportResult TranscriptImporter::import(QIODevice *device, const QString &sourceName, const ImportOptions &options) const
{
    ImportResult result;
    result.session.sourceFormat = id();
    result.session.sourcePath = sourceName;

    if (!device || !device->isReadable()) {
        result.error = QCoreApplication::translate("TranscriptImport", "%1: not readable").arg(sourceName);
        return result;
    }
    const QByteArray head = device->peek(checkBytes);
    if (head.trimmed().isEmpty() && (device->atEnd() || (!device->isSequential() && device->size() - device->pos() <= head.size()))) {
        result.error = QCoreApplication::translate("TranscriptImport", "%1: the file is empty").arg(sourceName);
        return result;
    }
    if (const qsizetype nul = head.indexOf('\0'); nul >= 0) {
        result.error = QCoreApplication::translate("TranscriptImport", "%1: binary file (NUL byte at offset %2), not a transcript").arg(sourceName).arg(nul);
        return result;
    }
    if (!TranscriptSample::isUtf8(head, head.size() < checkBytes)) {
        result.error = QCoreApplication::translate("TranscriptImport", "%1: not UTF-8 text (binary file?), not a transcript").arg(sourceName);
        return result;
    }
    if (head.startsWith("\xEF\xBB\xBF"))
        device->skip(3);

    ImportContext context(device, sourceName, options, &result.session);
    const bool ok = read(context);
    complete(context, ok, &result);
    return result;
}

void TranscriptImporter::complete(ImportContext &context, bool ok, ImportResult *result) const
{
    const QString &sourceName = result->session.sourcePath;
    if (ok && context.error().isEmpty() && result->session.messageCount == 0) {
        const QString first = result->session.problems.value(0);
        result->error = first.isEmpty() ? QCoreApplication::translate("TranscriptImport", "%1: no conversation found for format '%2'").arg(sourceName, id())
                                        : QCoreApplication::translate("TranscriptImport", "%1: no conversation found; %2 record(s) skipped, the first: %3")
                                              .arg(sourceName).arg(result->session.skippedLines).arg(first);
        return;
    }
    // A file of one session has no second one (files of several check this themselves).
    if (ok && context.error().isEmpty() && context.options().runIndex >= result->session.runCount) {
        result->error = QCoreApplication::translate("TranscriptImport", "%1: session %2 does not exist; the file holds %n session(s)", nullptr, result->session.runCount)
                            .arg(sourceName).arg(context.options().runIndex);
        return;
    }
    if (ok && context.error().isEmpty()) {
        context.finish();
        result->ok = true;
        qCInfo(lcReplay) << "imported" << sourceName << "as" << id() << result->session.messageCount << "messages,"
                         << result->session.requests.size() << "requests," << result->session.skippedLines << "skipped";
    } else {
        result->cancelled = context.wasCancelled();
        result->error = context.error().isEmpty() ? QCoreApplication::translate("TranscriptImport", "%1: import stopped").arg(sourceName) : context.error();
        qCInfo(lcReplay) << "import failed:" << result->error;
    }
}

} // namespace wl
