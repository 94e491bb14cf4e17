#include "PinSelectionDialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

PinSelectionDialog::PinSelectionDialog(qint64 messageId, const QString &text, QWidget *parent)
    : QDialog(parent), m_text(new QPlainTextEdit(this))
{
    setObjectName(u"PinSelectionDialog"_s);
    setWindowTitle(tr("Pin a Selection of Message %1").arg(messageId));
    m_text->setReadOnly(true);
    m_text->setPlainText(text);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_pin = buttons->addButton(tr("&Pin Selection"), QDialogButtonBox::AcceptRole);
    m_pin->setEnabled(false);
    connect(m_text, &QPlainTextEdit::selectionChanged, this, [this] { m_pin->setEnabled(!selectedText().trimmed().isEmpty()); });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Select the part to keep verbatim in every request:"), this));
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
    resize(640, 420);
}

QString PinSelectionDialog::selectedText() const
{
    QString text = m_text->textCursor().selectedText();
    text.replace(QChar::ParagraphSeparator, u'\n');
    text.replace(QChar::LineSeparator, u'\n');
    return text;
}

} // namespace wl
