#pragma once

#include <QString>

// A line diff in unified format, for the approval dialog of write_file and edit_file.
namespace wl::UnifiedDiff {

struct Options
{
    int context = 3;              // unchanged lines around each change
    int maxEditDistance = 4000;   // above this many changed lines, show one hunk replacing everything
    qsizetype maxBytes = 256 * 1024; // the diff text is cut here with a note
};

// Lines compare with their line endings, so a CRLF -> LF change shows up.
// Returns an empty string when the texts are equal.
QString diff(const QString &oldText, const QString &newText, const QString &oldLabel, const QString &newLabel,
             const Options &options = {});

} // namespace wl::UnifiedDiff
