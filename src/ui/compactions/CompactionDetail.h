#pragma once

#include <QCoreApplication>
#include <QString>

namespace wl {

struct Checkpoint;
struct CompactionRecord;

// What one compaction did, as rich text for the Compactions dock's detail pane: its numbers and
// why its tier was chosen, what it summarised, what it offloaded, which anchors changed, and the
// text of the checkpoint it wrote (`checkpoint`, when the session holds one for the record).
class CompactionDetail
{
    Q_DECLARE_TR_FUNCTIONS(CompactionDetail)
public:
    static QString html(const CompactionRecord &record, const Checkpoint *checkpoint);

private:
    static QString summarised(const CompactionRecord &record, const Checkpoint *checkpoint);
    static QString offloaded(const CompactionRecord &record);
    static QString anchors(const CompactionRecord &record);
};

} // namespace wl
