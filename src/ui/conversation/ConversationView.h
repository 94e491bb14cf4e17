#pragma once

#include "conversation/ConversationTypes.h"

#include <QListView>

class QTimer;

namespace wl {

class ConversationDelegate;

// The central conversation list. Works on any model that provides ConversationModel's roles.
// Lays out only the rows on screen (see ConversationDelegate), follows the bottom while text
// streams in unless the user scrolled up, and turns clicks and keys on the painted buttons
// into signals. Rows paged in at the top (prependMessages) do not move what is on screen.
// Keyboard: Left/Right pick a button of the current row, Return/Space press
// it (or expand a tool card / open a compaction record), Ctrl+C copies the selected rows.
class ConversationView : public QListView
{
    Q_OBJECT
public:
    explicit ConversationView(QWidget *parent = nullptr);
    ~ConversationView() override;

    void setModel(QAbstractItemModel *model) override;
    ConversationDelegate *conversationDelegate() const { return m_delegate; }

    // Rows that currently hold a layout; bounded by what has been visible, never the whole model.
    int laidOutRowCount() const;
    // Builds the layouts of the visible rows now and relayouts when estimates were off
    // (paintEvent does the same; tests and benchmarks call it directly).
    void ensureVisibleLayouts();

    // Where an action of a row is, in viewport coordinates (null rect when the row has none).
    QRect actionRect(const QModelIndex &index, ConversationAction action);
    // The keyboard's current button on the current row.
    ConversationAction focusedAction() const { return m_focusAction; }

    // True while new rows and streamed text keep the view scrolled to the bottom.
    bool isFollowingBottom() const { return m_followBottom; }
    void setFollowingBottom(bool follow);

    // Text of the selected rows (or else the current row), in row order, as Ctrl+C copies it.
    QString selectedText() const;

    // Drawn in the middle of the view while the model has no rows (what to do next); empty: nothing.
    void setEmptyText(const QString &text);
    QString emptyText() const { return m_emptyText; }

public Q_SLOTS:
    // Make the first row of a message (a tool result: its card) or a compaction's marker the
    // current one and scroll it into view; false when there is no such row. They do not emit
    // messageChosen or compactionActivated.
    bool selectMessage(qint64 messageId);
    bool selectCompaction(const QString &recordId);

Q_SIGNALS:
    // The user made a row current (click or keys): the message it shows (for a tool card, its
    // result's message once stored, else the call's). A marker row emits compactionActivated.
    void messageChosen(qint64 messageId);
    void approvalDecided(const QString &approvalId, wl::ApprovalDecision decision);
    void retryRequested(const QString &errorId);
    void skipRequested();
    void compactionActivated(const QString &recordId);
    void offloadActivated(const QString &callId);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    void currentChanged(const QModelIndex &current, const QModelIndex &previous) override;
    void dataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles) override;
    void rowsAboutToBeRemoved(const QModelIndex &parent, int start, int end) override;
    void rowsInserted(const QModelIndex &parent, int start, int end) override;
    void reset() override;

private:
    QStyleOptionViewItem optionFor(const QModelIndex &index) const;
    QList<QModelIndex> visibleIndexes() const;
    ConversationAction hitTest(const QModelIndex &index, const QPoint &pos);
    void trigger(const QModelIndex &index, ConversationAction action);
    void updateRow(const QModelIndex &index);
    void syncFocusState();
    void scrollToEnd();
    void onScrollValueChanged(int value);
    void onScrollRangeChanged(int min, int max);
    void tick();
    void onRowsAboutToBeInserted(const QModelIndex &parent, int start, int end);
    void reportChoice(const QModelIndex &index);
    bool showRow(const QModelIndex &index);

    ConversationDelegate *m_delegate = nullptr;
    QTimer *m_ticker = nullptr;
    QPersistentModelIndex m_pressedIndex;
    ConversationAction m_pressedAction = ConversationAction::None;
    QPersistentModelIndex m_hoverIndex;
    QPersistentModelIndex m_prependAnchor;   // first visible row while older rows are paged in
    int m_prependAnchorTop = 0;
    ConversationAction m_hoverAction = ConversationAction::None;
    ConversationAction m_focusAction = ConversationAction::None;
    bool m_followBottom = true;
    bool m_adjustingScroll = false;
    bool m_preparing = false;
    bool m_userInput = false;   // inside a key press: a new current row is the user's choice
    QString m_emptyText;
};

} // namespace wl
