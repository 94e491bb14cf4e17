#pragma once

#include "ImportedSession.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

class QIODevice;

namespace wl {

class ImportContext;

// What format sniffing looks at: the start of the file, and its first line parsed when
// that line is a complete JSON object.
struct TranscriptSample
{
    QString fileName;        // for extension hints (.traj, .jsonl); may be empty
    QByteArray head;         // the first bytes (TranscriptFormats reads up to sampleBytes)
    char firstChar = 0;      // first non-whitespace byte, 0 when none
    QJsonObject firstRecord; // first line as an object, when it is complete and parses

    static constexpr qint64 sampleBytes = 256 * 1024;
    static TranscriptSample fromBytes(const QByteArray &head, const QString &fileName = {});
    // True when `head` is valid UTF-8; unless `complete`, a sequence cut at the end is allowed.
    static bool isUtf8(QByteArrayView head, bool complete);
};

// One importer per source format. Importers are stateless: import() may be called from
// any thread (one call per thread at a time is not required).
class TranscriptImporter
{
public:
    virtual ~TranscriptImporter() = default;

    // Stable id used by --format and stored as ImportedSession::sourceFormat.
    virtual QString id() const;
    // Translated, user-visible name ("Claude Code session").
    virtual QString displayName() const;
    // 0 = not this format, 100 = certainly this format.
    virtual int canRead(const TranscriptSample &sample) const = 0;

    // Reads the device from its current position. `sourceName` names it in messages and
    // becomes ImportedSession::sourcePath. Rejects empty and binary input before parsing.
    ImportResult import(QIODevice *device, const QString &sourceName, const ImportOptions &options = {}) const;
    // A file, or a folder for formats that store a session as one file per event.
    ImportResult importFile(const QString &path, const ImportOptions &options = {}) const;

    // Folders: 0 = not this format (the default), 100 = certainly.
    virtual int canReadFolder(const QString &path) const;

protected:
    // `displayName` is translated in the "TranscriptImport" context: mark it with QT_TRANSLATE_NOOP.
    TranscriptImporter(const QString &id, const char *displayName);

    // Fills the context; returns false after ImportContext::fail() or on cancel.
    virtual bool read(ImportContext &context) const = 0;
    // Fills the context from the folder `path`; the default refuses folders.
    virtual bool readFolder(ImportContext &context, const QString &path) const;

private:
    ImportResult importFolder(const QString &path, const ImportOptions &options) const;
    // The common end of an import: checks there is a conversation, finishes the context.
    void complete(ImportContext &context, bool ok, ImportResult *result) const;

    QString m_id;
    const char *m_displayName;
};

} // namespace wl
