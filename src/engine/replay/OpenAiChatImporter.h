#pragma once

#include "TranscriptImporter.h"

namespace wl {

class OpenAiChatImporter : public TranscriptImporter
{
public:
    QString id() const override;
    QString displayName() const override;
    int canRead(const TranscriptSample &sample) const override;

protected:
    bool read(ImportContext &context) const override;
};

} // namespace wl
