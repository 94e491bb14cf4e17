#pragma once

#include "ImportedSession.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace wl {

class TranscriptImporter;

// Entry points for importing transcripts of other agents.
//
//   ImportResult r = TranscriptFormats::importFile(path);            // auto-detect
//   ImportResult r = TranscriptFormats::importFile(path, u"codex"_s); // forced format
//   if (!r.ok) show(r.error); else store(r.session);
//
// Built-in format ids: "openai" (Chat Completions messages: JSON array, {messages, tools}
// object, LiteLLM request/response log, JSONL of messages, or a JSON array of sessions
// {instance_id, messages, tools}), "claude-code", "codex", "swe-agent", "openhands" (V0
// evaluation output.jsonl, V0 trajectory array, V1 events.jsonl, or a folder of one JSON file
// per event). Files of several sessions: ImportOptions::runIndex picks one,
// ImportedSession::runCount/runIds say how many and which.
// More importers (e.g. Waterline's own export, handled by the store) can be registered.
// For very large files set ImportOptions::sink so messages are streamed, not collected.
class TranscriptFormats
{
public:
    struct Detection
    {
        QString format;      // empty when nothing matched (or on error)
        int confidence = 0;  // 0..100
        QString error;       // translated; set for unreadable, empty or binary files
    };

    // Sniffs the first TranscriptSample::sampleBytes of the file (of a folder: its first event file).
    static Detection detect(const QString &path);

    // `format` empty or "auto" detects; `path` may be a folder of event files. Never throws;
    // errors are in ImportResult::error.
    static ImportResult importFile(const QString &path, const QString &format = {},
                                   const ImportOptions &options = {});

    // Known format ids, built-in first.
    static QStringList formats();
    static const TranscriptImporter *importer(const QString &format);

    // Adds an importer (takes ownership). Call during start-up, before imports run.
    static void registerImporter(std::unique_ptr<TranscriptImporter> importer);
};

} // namespace wl
