#pragma once

#include "compaction/Pin.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTreeView;

namespace wl {

class PinsModel;

// The pins of the open session (docs/COMPACTION.md section 12), shown under the Context dock: what
// is pinned, the tokens it takes of its budget, one click to unpin and "Add Note...". It only
// asks: the window stores (SessionLifecycle) and shows the session again.
class PinsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit PinsPanel(QWidget *parent = nullptr);

    // The session's pins, their section's tokens and the budget (PinnedSection), and whether a
    // session is open to pin in.
    void setPins(const QList<Pin> &pins, qint64 pinnedTokens, qint64 budgetTokens, bool enabled);

    PinsModel *model() const { return m_model; }
    QTreeView *list() const { return m_list; }
    QString summaryText() const;

Q_SIGNALS:
    void unpinRequested(qint64 pinId);
    void noteRequested(const QString &text);
    // A message or selection pin was activated: show its message.
    void messageChosen(qint64 messageId);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void addNote();

    PinsModel *m_model;
    QTreeView *m_list;
    QLabel *m_summary;
    QPushButton *m_addNote;
};

} // namespace wl
