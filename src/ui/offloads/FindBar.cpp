#include "offloads/FindBar.h"

#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QLocale>
#include <QTextBlock>
#include <QTextDocument>
#include <QTimer>
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
    , m_recount(new QTimer(this))
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

    // Text appended while the bar is open (Load More) changes the count; formats being applied do not.
    m_recount->setSingleShot(true);
    m_recount->setInterval(150);
    connect(m_recount, &QTimer::timeout, this, [this] {
        if (isVisible() && !m_field->text().isEmpty()) {
            countMatches();
            showStatus();
        }
    });
    connect(m_editor->document(), &QTextDocument::contentsChange, this, [this](int, int removed, int added) {
        if (removed != added && isVisible())
            m_recount->start();
    });
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
    // The text takes the focus back only from the bar: the viewer closes it too when another view
    // selects something, and the focus stays in that view.
    const bool hadFocus = isAncestorOf(QApplication::focusWidget());
    hide();
    m_note.clear();
    m_count = 0;
    m_current = 0;
    m_countExact = true;
    m_status->clear();
    if (hadFocus)
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
    m_note.clear();
    if (needle.isEmpty()) {
        m_count = m_current = 0;
        m_countExact = true;
        showStatus();
        return false;
    }
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
            m_note = backward ? tr("Wrapped to the end") : tr("Wrapped to the start");
    }
    if (found.isNull()) {
        m_note = tr("Not found in the loaded text");
        m_count = m_current = 0;
        m_countExact = true;
        showStatus();
        return false;
    }
    m_editor->setTextCursor(found);
    m_editor->ensureCursorVisible();
    countMatches();
    showStatus();
    return true;
}

void FindBar::countMatches()
{
    // Block by block, as QTextDocument::find() matches (never across a line break), and within the
    // time budget: the count and the rank of the selected match in one pass.
    const QString needle = m_field->text();
    const Qt::CaseSensitivity cs = m_case->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive;
    const QTextCursor selected = m_editor->textCursor();
    const int selectedStart = selected.hasSelection() ? selected.selectionStart() : -1;
    m_count = 0;
    m_current = 0;
    m_countExact = true;
    if (needle.isEmpty())
        return;
    QElapsedTimer clock;
    clock.start();
    for (QTextBlock block = m_editor->document()->begin(); block.isValid(); block = block.next()) {
        const QString text = block.text();
        for (qsizetype at = text.indexOf(needle, 0, cs); at >= 0; at = text.indexOf(needle, at + needle.size(), cs)) {
            ++m_count;
            if (block.position() + at == selectedStart)
                m_current = m_count;
        }
        if (clock.elapsed() > kCountBudgetMs && block.next().isValid()) {
            m_countExact = false;
            return;
        }
    }
}

void FindBar::showStatus()
{
    QString text;
    if (m_count > 0) {
        const QString total = QLocale().toString(m_count);
        if (m_current > 0)
            text = m_countExact ? tr("%1 of %2").arg(QLocale().toString(m_current), total)
                                : tr("%1 of at least %2").arg(QLocale().toString(m_current), total);
        else
            text = m_countExact ? tr("%n match(es)", nullptr, m_count) : tr("at least %n match(es)", nullptr, m_count);
    }
    if (!m_note.isEmpty())
        text = text.isEmpty() ? m_note : text + u" · "_s + m_note;
    m_status->setText(text);
}

} // namespace wl
