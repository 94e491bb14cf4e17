#include "offloads/FindBar.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextDocument>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace wl {

FindBar::FindBar(QPlainTextEdit *editor, QWidget *parent)
    : QWidget(parent)
    , m_editor(editor)
    , m_field(new QLineEdit(this))
    , m_previous(new QToolButton(this))
    , m_next(new QToolButton(this))
    , m_case(new QCheckBox(tr("Match case"), this))
    , m_status(new QLabel(this))
{
    setObjectName(u"findBar"_s);
    m_field->setObjectName(u"findField"_s);
    m_field->setPlaceholderText(tr("Find in the loaded text"));
    m_field->setClearButtonEnabled(true);
    m_previous->setObjectName(u"findPrevious"_s);
    m_previous->setArrowType(Qt::UpArrow);
    m_previous->setToolTip(tr("Previous match (Shift+Enter)"));
    m_previous->setAutoRaise(true);
    m_next->setObjectName(u"findNext"_s);
    m_next->setArrowType(Qt::DownArrow);
    m_next->setToolTip(tr("Next match (Enter)"));
    m_next->setAutoRaise(true);
    m_case->setObjectName(u"findMatchCase"_s);
    m_status->setObjectName(u"findStatus"_s);
    auto *closeButton = new QToolButton(this);
    closeButton->setObjectName(u"findClose"_s);
    closeButton->setText(u"\u2715"_s);
    closeButton->setToolTip(tr("Close the find bar (Esc)"));
    closeButton->setAutoRaise(true);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(new QLabel(tr("Find:"), this));
    layout->addWidget(m_field, 1);
    layout->addWidget(m_previous);
    layout->addWidget(m_next);
    layout->addWidget(m_case);
    layout->addWidget(m_status);
    layout->addWidget(closeButton);
    setFocusProxy(m_field);

    // Typing searches from where the current match starts, so the match grows in place.
    connect(m_field, &QLineEdit::textEdited, this, [this] { find(false, true); });
    m_field->installEventFilter(this);
    connect(m_next, &QToolButton::clicked, this, &FindBar::findNext);
    connect(m_previous, &QToolButton::clicked, this, &FindBar::findPrevious);
    connect(m_case, &QCheckBox::toggled, this, [this] { find(false, true); });
    connect(closeButton, &QToolButton::clicked, this, &FindBar::close);
}

QString FindBar::text() const
{
    return m_field->text();
}

void FindBar::setText(const QString &text)
{
    m_field->setText(text);
}

bool FindBar::caseSensitive() const
{
    return m_case->isChecked();
}

void FindBar::setCaseSensitive(bool on)
{
    const QSignalBlocker blocker(m_case);
    m_case->setChecked(on);
}

QString FindBar::statusText() const
{
    return m_status->text();
}

void FindBar::activate()
{
    const QString selected = m_editor->textCursor().selectedText();
    if (!selected.isEmpty() && !selected.contains(QChar::ParagraphSeparator))
        m_field->setText(selected);
    show();
    m_field->setFocus(Qt::ShortcutFocusReason);
    m_field->selectAll();
}

bool FindBar::findNext()
{
    return find(false, false);
}

bool FindBar::findPrevious()
{
    return find(true, false);
}

void FindBar::close()
{
    hide();
    m_status->clear();
    m_editor->setFocus(Qt::OtherFocusReason);
}

void FindBar::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape) {
        close();
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

bool FindBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_field && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            find(key->modifiers().testFlag(Qt::ShiftModifier), false);
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            close();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

bool FindBar::find(bool backward, bool fromSelectionStart)
{
    const QString needle = m_field->text();
    m_status->clear();
    if (needle.isEmpty())
        return false;
    QTextDocument::FindFlags flags;
    if (backward)
        flags |= QTextDocument::FindBackward;
    if (m_case->isChecked())
        flags |= QTextDocument::FindCaseSensitively;

    QTextDocument *doc = m_editor->document();
    QTextCursor from = m_editor->textCursor();
    if (fromSelectionStart && from.hasSelection())
        from.setPosition(from.selectionStart());
    QTextCursor found = doc->find(needle, from, flags);
    if (found.isNull()) { // wrap around once
        QTextCursor edge(doc);
        if (backward)
            edge.movePosition(QTextCursor::End);
        found = doc->find(needle, edge, flags);
        if (!found.isNull())
            m_status->setText(backward ? tr("Wrapped to the end") : tr("Wrapped to the start"));
    }
    if (found.isNull()) {
        m_status->setText(tr("Not found in the loaded text"));
        return false;
    }
    m_editor->setTextCursor(found);
    m_editor->ensureCursorVisible();
    return true;
}

} // namespace wl
