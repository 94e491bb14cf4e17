#pragma once

#include "conversation/SlashCommand.h"

#include <QWidget>

class QCompleter;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStandardItemModel;

namespace wl {

class PromptEditor;

// The prompt box under the conversation: multi-line text, Ctrl+Enter sends, Esc stops,
// slash commands complete in a popup and come out parsed. While a run is going the Send
// button turns into Stop. setBlockedReason() stops messages from being sent and says why; the
// box still takes a draft (kept for later) and slash commands (/new works without a model).
class PromptInput : public QWidget
{
    Q_OBJECT
public:
    explicit PromptInput(QWidget *parent = nullptr);
    ~PromptInput() override;

    QString text() const;
    void setText(const QString &text);

    // While running, Send is Stop and only slash commands are accepted.
    void setRunning(bool running);
    bool isRunning() const { return m_running; }

    // Non-empty: messages are not sent and the reason is the box's placeholder; with `banner` it
    // is also shown above the box (not for a read-only session, where it is no fault). A message
    // sent anyway stays in the box and the reason is shown. Empty: messages go out again.
    void setBlockedReason(const QString &reason, bool banner = true);
    QString blockedReason() const { return m_blockedReason; }
    bool isBlocked() const { return !m_blockedReason.isEmpty(); }

    // The line shown above the box: the blocked reason or a message about the last input.
    QString notice() const;

    QPlainTextEdit *editor() const;
    QPushButton *sendButton() const { return m_sendButton; }
    QCompleter *completer() const { return m_completer; }

public Q_SLOTS:
    // What Ctrl+Enter and Send do: emits commandRequested() or submitted() and clears the box.
    void submit();

Q_SIGNALS:
    void submitted(const QString &text);
    void commandRequested(wl::SlashCommand command);
    void stopRequested();

private:
    friend class PromptEditor;
    void updateCompletion();
    void insertCompletion(const QString &completion);
    void showNotice(const QString &text, bool warning);
    void updateState();
    void onButtonClicked();

    PromptEditor *m_editor = nullptr;
    QPushButton *m_sendButton = nullptr;
    QLabel *m_notice = nullptr;
    QCompleter *m_completer = nullptr;
    QStandardItemModel *m_commands = nullptr;
    QString m_blockedReason;
    bool m_blockedBanner = true;
    QString m_message;
    bool m_running = false;
};

} // namespace wl
