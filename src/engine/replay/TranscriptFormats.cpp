#include "TranscriptFormats.h"

#include "ClaudeCodeImporter.h"
#include "CodexImporter.h"
#include "OpenAiChatImporter.h"
#include "OpenHandsImporter.h"
#include "SweAgentImporter.h"
#include "TranscriptImporter.h"
#include "WaterlineImporter.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QMutex>

#include <vector>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

struct Registry
{
    QMutex mutex;
    std::vector<std::unique_ptr<TranscriptImporter>> importers;

    Registry()
    {
        importers.push_back(std::make_unique<ClaudeCodeImporter>());
        importers.push_back(std::make_unique<CodexImporter>());
        importers.push_back(std::make_unique<OpenHandsImporter>());
        importers.push_back(std::make_unique<SweAgentImporter>());
        importers.push_back(std::make_unique<OpenAiChatImporter>());
        importers.push_back(std::make_unique<WaterlineImporter>());
    }
};

Registry &registry()
{
    static Registry instance;
    return instance;
}

} // namespace

TranscriptFormats::Detection TranscriptFormats::detect(const QString &path)
{
    Detection detection;
    if (QFileInfo(path).isDir()) {
        Registry &r = registry();
        QMutexLocker lock(&r.mutex);
        for (const auto &importer : r.importers) {
            const int confidence = importer->canReadFolder(path);
            if (confidence > detection.confidence) {
                detection.confidence = confidence;
                detection.format = importer->id();
            }
        }
        if (detection.format.isEmpty())
            detection.error = QCoreApplication::translate("TranscriptImport", "%1: is a folder, not a transcript file (nor a folder of event files)").arg(path);
        return detection;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        detection.error = QCoreApplication::translate("TranscriptImport", "%1: cannot open: %2").arg(path, file.errorString());
        return detection;
    }
    const QByteArray head = file.read(TranscriptSample::sampleBytes);
    if (head.trimmed().isEmpty()) {
        detection.error = QCoreApplication::translate("TranscriptImport", "%1: the file is empty").arg(path);
        return detection;
    }
    if (head.contains('\0')) {
        detection.error = QCoreApplication::translate("TranscriptImport", "%1: binary file, not a transcript").arg(path);
        return detection;
    }
    if (!TranscriptSample::isUtf8(head, head.size() < TranscriptSample::sampleBytes)) {
        detection.error = QCoreApplication::translate("TranscriptImport", "%1: not UTF-8 text (binary file?), not a transcript").arg(path);
        return detection;
    }
    const TranscriptSample sample = TranscriptSample::fromBytes(head, QFileInfo(path).fileName());
    {
        Registry &r = registry();
        QMutexLocker lock(&r.mutex);
        for (const auto &importer : r.importers) {
            const int confidence = importer->canRead(sample);
            if (confidence > detection.confidence) {
                detection.confidence = confidence;
                detection.format = importer->id();
            }
        }
    }
    if (detection.format.isEmpty())
        detection.error = QCoreApplication::translate("TranscriptImport", "%1: unknown transcript format (supported: %2)").arg(path, formats().join(u", "_s));
    return detection;
}

ImportResult TranscriptFormats::importFile(const QString &path, const QString &format, const ImportOptions &options)
{
    QString chosen = format;
    if (chosen.isEmpty() || chosen == "auto"_L1) {
        const Detection detection = detect(path);
        if (detection.format.isEmpty()) {
            ImportResult result;
            result.error = detection.error;
            return result;
        }
        chosen = detection.format;
    }
    const TranscriptImporter *found = importer(chosen);
    if (!found) {
        ImportResult result;
        result.error = QCoreApplication::translate("TranscriptImport", "unknown format '%1' (known: %2)").arg(chosen, formats().join(u", "_s));
        return result;
    }
    return found->importFile(path, options);
}

QStringList TranscriptFormats::formats()
{
    Registry &r = registry();
    QMutexLocker lock(&r.mutex);
    QStringList ids;
    for (const auto &importer : r.importers)
        ids << importer->id();
    return ids;
}

const TranscriptImporter *TranscriptFormats::importer(const QString &format)
{
    Registry &r = registry();
    QMutexLocker lock(&r.mutex);
    for (const auto &importer : r.importers) {
        if (importer->id() == format)
            return importer.get();
    }
    return nullptr;
}

void TranscriptFormats::registerImporter(std::unique_ptr<TranscriptImporter> importer)
{
    Registry &r = registry();
    QMutexLocker lock(&r.mutex);
    r.importers.push_back(std::move(importer));
}

} // namespace wl
