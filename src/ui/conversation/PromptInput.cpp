#include "PromptInput.h"

#include "common/AppIcons.h"
#include "common/PaletteColors.h"

#include <QAbstractItemView>
#include <QBoxLayout>
#include <QCompleter>
#include <QKeyEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QStandardItemModel>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr int kCompletionRole = Qt::UserRole + 1;
constexpr int kCommandRole = Qt::UserRole + 2;
} // namespace

// The text box: owns the key handling so the completer popup sees keys first.
class PromptEditor : public QPlainTextEdit
{
public:
    explicit PromptEditor(PromptInput *owner)
        : QPlainTextEdit(owner)
        , m_owner(owner)
    {
    }

protected:
    void keyPressEvent(QKeyEvent *event) override
    {
        const bool popupVisible = m_owner->m_completer->popup()->isVisible();
        const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
        if (enter && (event->modifiers() & Qt::ControlModifier)) {
            m_owner->m_completer->popup()->hide();
            m_owner->submit();
            event->accept();
            return;
        }
        if (popupVisible) {
            switch (event->key()) {
            case Qt::Key_Return:
            case Qt::Key_Enter:
            case Qt::Key_Tab:
            case Qt::Key_Backtab:
            case Qt::Key_Escape:
                // The completer acts on these.
                event->ignore();
                return;
            default:
                break;
            }
        }
        if (event->key() == Qt::Key_Escape) {
            Q_EMIT m_owner->stopRequested();
            event->accept();
            return;
        }
        QPlainTextEdit::keyPressEvent(event);
    }

private:
    PromptInput *m_owner;
};

PromptInput::PromptInput(QWidget *parent)
    : QWidget(parent)
    , m_editor(new PromptEditor(this))
    , m_sendButton(new QPushButton(this))
    , m_notice(new QLabel(this))
    , m_completer(new QCompleter(this))
    , m_commands(new QStandardItemModel(this))
{
    setObjectName(u"PromptInput"_s);
    m_editor->setObjectName(u"PromptEditor"_s);
    m_sendButton->setObjectName(u"PromptSendButton"_s);
    m_notice->setObjectName(u"PromptNotice"_s);

    m_editor->setTabChangesFocus(true);
    m_editor->setAccessibleName(tr("Prompt"));
    const int line = m_editor->fontMetrics().lineSpacing();
    m_editor->setMinimumHeight(line * 3 + 12);
    m_editor->setMaximumHeight(line * 10 + 12);
    m_editor->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);

    m_notice->setWordWrap(true);
    m_notice->setTextFormat(Qt::PlainText);
    m_notice->hide();

    // The popup shows each command with what it does; completion matches the command alone.
    for (const SlashCommandInfo &info : slashCommands()) {
        auto *item = new QStandardItem(tr("%1 — %2").arg(info.text, info.description));
        item->setToolTip(info.description);
        item->setData(info.text, kCompletionRole);
        item->setData(int(info.command), kCommandRole);
        m_commands->appendRow(item);
    }
    m_completer->setModel(m_commands);
    m_completer->setCompletionRole(kCompletionRole);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->setWidget(m_editor);
    m_completer->popup()->setObjectName(u"PromptCommandPopup"_s);
    connect(m_completer, qOverload<const QString &>(&QCompleter::activated), this, &PromptInput::insertCompletion);
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_message.isEmpty()) {
            m_message.clear();
            updateState();
        }
        updateCompletion();
    });
    connect(m_sendButton, &QPushButton::clicked, this, &PromptInput::onButtonClicked);

    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_editor, 1);
    auto *buttons = new QVBoxLayout;
    buttons->addWidget(m_sendButton);
    buttons->addStretch(1);
    row->addLayout(buttons);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addWidget(m_notice);
    layout->addLayout(row);
    setFocusProxy(m_editor);
    updateState();
}

PromptInput::~PromptInput() = default;

QPlainTextEdit *PromptInput::editor() const
{
    return m_editor;
}

QString PromptInput::text() const
{
    return m_editor->toPlainText();
}

void PromptInput::setText(const QString &text)
{
    m_editor->setPlainText(text);
    m_editor->moveCursor(QTextCursor::End);
}

void PromptInput::setRunning(bool running)
{
    if (m_running == running)
        return;
    m_running = running;
    updateState();
}

void PromptInput::setBlockedReason(const QString &reason, bool banner)
{
    if (reason != m_blockedReason)
        m_message.clear();
    m_blockedReason = reason;
    m_blockedBanner = banner;
    updateState();
}

QString PromptInput::notice() const
{
    return m_notice->isHidden() ? QString() : m_notice->text();
}

void PromptInput::showNotice(const QString &text, bool warning)
{
    m_notice->setText(text);
    m_notice->setVisible(!text.isEmpty());
    QPalette palette = this->palette();
    if (warning) {
        const bool dark = isDarkPalette(palette);
        palette.setColor(QPalette::WindowText, dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xb7, 0x1c, 0x1c));
    } else {
        palette.setColor(QPalette::WindowText, palette.color(QPalette::PlaceholderText));
    }
    m_notice->setPalette(palette);
}

void PromptInput::updateState()
{
    const bool blocked = isBlocked();
    m_editor->setPlaceholderText(blocked ? m_blockedReason : tr("Ask the agent… (Ctrl+Enter sends, / for commands)"));
    m_sendButton->setIcon(AppIcons::icon(m_running ? AppIcons::Icon::Stop : AppIcons::Icon::Run));
    if (m_running) {
        m_sendButton->setText(tr("Stop"));
        m_sendButton->setToolTip(tr("Stop the running request (Esc)"));
    } else {
        m_sendButton->setText(tr("Send"));
        m_sendButton->setToolTip(tr("Send the prompt (Ctrl+Enter)"));
    }
    // Why the prompt is disabled is a state, not a fault (the demo and imported sessions have no
    // model on purpose): say it calmly. A rejected command is the user's to fix, so it warns.
    if (!m_message.isEmpty())
        showNotice(m_message, true);
    else
        showNotice(blocked && m_blockedBanner ? m_blockedReason : QString(), false);
}

void PromptInput::onButtonClicked()
{
    if (m_running)
        Q_EMIT stopRequested();
    else
        submit();
}

void PromptInput::submit()
{
    const QString text = m_editor->toPlainText();
    if (text.trimmed().isEmpty())
        return;
    SlashCommand command = SlashCommand::Compact;
    switch (parseSlashCommand(text, &command)) {
    case SlashParse::Command:
        m_editor->clear();
        Q_EMIT commandRequested(command);
        return;
    case SlashParse::Unknown: {
        QStringList known;
        for (const SlashCommandInfo &info : slashCommands())
            known.append(info.text);
        m_message = tr("Unknown command %1. Commands: %2. Start with a space to send it as text.")
                        .arg(text.simplified().section(u' ', 0, 0), known.join(u", "_s));
        updateState();
        return;
    }
    case SlashParse::NotACommand:
        if (isBlocked()) {
            m_message = m_blockedReason; // the draft stays for when a model answers
            updateState();
            return;
        }
        if (m_running) {
            m_message = tr("The agent is still working: stop it (Esc) or wait before sending.");
            updateState();
            return;
        }
        m_editor->clear();
        Q_EMIT submitted(text);
        return;
    }
}

void PromptInput::updateCompletion()
{
    const QString text = m_editor->toPlainText();
    QAbstractItemView *popup = m_completer->popup();
    const bool candidate = text.startsWith(u'/') && !text.contains(u'\n') && m_editor->textCursor().atEnd();
    if (!candidate) {
        popup->hide();
        return;
    }
    m_completer->setCompletionPrefix(text);
    const int count = m_completer->completionCount();
    if (count == 0 || (count == 1 && m_completer->currentCompletion().compare(text, Qt::CaseInsensitive) == 0)) {
        popup->hide();
        return;
    }
    popup->setCurrentIndex(m_completer->completionModel()->index(0, 0));
    QRect rect = m_editor->cursorRect();
    rect.setWidth(popup->sizeHintForColumn(0) + popup->verticalScrollBar()->sizeHint().width() + 24);
    m_completer->complete(rect);
}

void PromptInput::insertCompletion(const QString &completion)
{
    const QSignalBlocker blocker(m_editor);
    m_editor->setPlainText(completion);
    m_editor->moveCursor(QTextCursor::End);
    m_completer->popup()->hide();
    if (!m_message.isEmpty()) {
        m_message.clear();
        updateState();
    }
}

} // namespace wl
