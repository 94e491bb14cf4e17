#pragma once

#include <QString>

namespace wl {

struct ToolCall;

// What produced an offloaded result, as the Offloads dock names it: the path a file tool read or
// wrote, the command a shell ran, or a few arguments of any other tool. `fileName` is the file the
// result shows, when the call names one (what the highlighting is chosen by).
struct OffloadSource
{
    QString label;     // one line; empty when the call says nothing worth showing
    QString fileName;  // a path from the arguments, or empty

    friend bool operator==(const OffloadSource &, const OffloadSource &) = default;

    static OffloadSource of(const ToolCall &call);
};

} // namespace wl
