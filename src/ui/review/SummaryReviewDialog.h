#pragma once

#include "compaction/Checkpoint.h"
#include "compaction/SummaryReview.h"

#include <QDialog>

#include <array>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace wl {

// A checkpoint as an editable document (issue #22 items 7, 8): each anchor and the summary, next
// to what it replaces, with the view's tokens before and after as the text is edited.
//
// Review mode (setDraft): a Soft or Full draft waits while the dialog is open; Accept commits the
// text as shown (edited or not), Reject keeps the history. Revise mode (setCheckpoint): a stored
// checkpoint, edited and committed as a new version for the requests that follow.
// The dialog only reports the decision (decided()); the caller hands it to the agent.
class SummaryReviewDialog : public QDialog
{
    Q_OBJECT
public:
    explicit SummaryReviewDialog(QWidget *parent = nullptr);
    // The dialog as the window opens it: beside the window (not modal: the agent's conversation
    // and the docks stay usable) and deleted when closed.
    static SummaryReviewDialog *openBeside(QWidget *window);

    void setDraft(const SummaryDraft &draft);
    // `checkpoint` as it is now (its current version); what it replaced is its own text.
    void setCheckpoint(const Checkpoint &checkpoint);

    bool isRevision() const { return m_revision; }
    qint64 checkpointId() const { return m_checkpointId; }
    Anchors editedAnchors() const;
    QString editedSummary() const;
    bool isEdited() const;
    // False for a draft whose checkpoint (as edited) is not smaller than what it replaces: flagged,
    // and Accept is disabled.
    bool canAccept() const;
    qint64 tokensAfter() const;
    QString tokensText() const;
    QPlainTextEdit *anchorEdit(AnchorKind kind) const { return m_anchorEdits[size_t(kind)]; }
    QPlainTextEdit *summaryEdit() const { return m_summaryEdit; }
    QPushButton *acceptButton() const { return m_accept; }
    QPushButton *rejectButton() const { return m_reject; }
    void done(int result) override;

Q_SIGNALS:
    // Accept or Reject (review), or commit (revision: always Accept). Emitted once per answer.
    void decided(const wl::ReviewDecision &decision);

private:
    void fill(const Anchors &anchors, const QString &summary);
    void updateTokens();
    void answer(ReviewDecision::Verdict verdict);

    SummaryDraft m_draft;
    bool m_revision = false;
    bool m_answered = false;
    qint64 m_checkpointId = 0;
    QLabel *m_heading;
    QLabel *m_tokens;
    QLabel *m_origin; // "drafted in the background", for a summary drafted ahead
    QPlainTextEdit *m_replaced;
    std::array<QPlainTextEdit *, kAnchorCount> m_anchorEdits{};
    QPlainTextEdit *m_summaryEdit;
    QPushButton *m_accept;
    QPushButton *m_reject;
    QPushButton *m_reset;
};

} // namespace wl
