#pragma once

#include "TranscriptImporter.h"

namespace wl {

// Waterline's own session export ("waterline-session" JSONL, see store/SessionExport.h) read
// as a transcript: its messages, and one request per request line that produced a message
// (usage, model, time). Checkpoint, offload and record lines are Waterline's own compaction
// overlays: counted in ignoredRecords here, kept whole when the file goes into the store
// (SessionImporter hands such files to SessionStore::importSession). Streams like the others.
class WaterlineImporter : public TranscriptImporter
{
public:
    WaterlineImporter(); // id "waterline"
    int canRead(const TranscriptSample &sample) const override;

protected:
    bool read(ImportContext &context) const override;
};

} // namespace wl
