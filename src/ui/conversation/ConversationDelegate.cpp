#include "ConversationDelegate.h"

#include "conversation/ConversationModel.h"
#include "conversation/JsonHighlighting.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QFontDatabase>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QStyle>
#include <QStyleOptionButton>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

#include <cmath>
#include <memory>

using namespace Qt::StringLiterals;

namespace wl {

// Everything a visible row needs to paint and hit-test, built once per width.
struct RowLayout
{
    struct Button
    {
        ConversationAction action = ConversationAction::None;
        QRect rect;
        QString text;
    };

    int width = 0;
    int height = 0;
    QRect frame;
    QRect header;
    QString headerSummary;  // tool card: the argument worth showing on the collapsed line
    std::unique_ptr<QTextDocument> body;
    QPoint bodyPos;
    std::unique_ptr<QTextDocument> arguments;
    QRect argumentsBox;
    QPoint argumentsCaption;
    std::unique_ptr<QTextDocument> result;
    QRect resultBox;
    QPoint resultCaption;
    QRect badge;
    QRect statusLine;
    QList<Button> buttons;
};

namespace {

constexpr int kSide = 12;         // left/right margin of a row
constexpr int kGap = 5;           // vertical margin above and below a row's frame
constexpr int kPad = 10;          // padding inside a frame
constexpr int kMaxArgumentChars = 20000;
constexpr int kMaxResultLines = 60;
constexpr int kMaxDetailLines = 400;

struct Metrics
{
    QFont font;
    QFont bold;
    QFont small;
    QFont mono;
    int line = 0;
    int smallLine = 0;
    int monoLine = 0;
    qreal charWidth = 7;
    qreal monoCharWidth = 7;
    int buttonHeight = 0;
    int cardHeader = 0;
};

const Metrics &metricsFor(const QStyleOptionViewItem &option)
{
    static Metrics cached;
    static bool valid = false;
    static QFont cachedFor;
    if (valid && cachedFor == option.font)
        return cached;
    cachedFor = option.font;
    valid = true;
    Metrics &m = cached;
    m.font = option.font;
    m.bold = option.font;
    m.bold.setBold(true);
    m.small = option.font;
    if (option.font.pointSizeF() > 0)
        m.small.setPointSizeF(option.font.pointSizeF() * 0.85);
    m.mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (option.font.pointSizeF() > 0)
        m.mono.setPointSizeF(option.font.pointSizeF() * 0.95);
    const QFontMetrics fm(m.font);
    const QFontMetrics sfm(m.small);
    const QFontMetrics mfm(m.mono);
    m.line = fm.lineSpacing();
    m.smallLine = sfm.lineSpacing();
    m.monoLine = mfm.lineSpacing();
    m.charWidth = fm.averageCharWidth();
    m.monoCharWidth = mfm.horizontalAdvance(u'M');
    const QStyle *style = option.widget ? option.widget->style() : QApplication::style();
    QStyleOptionButton button;
    button.fontMetrics = fm;
    m.buttonHeight = style->sizeFromContents(QStyle::CT_PushButton, &button, QSize(40, fm.height()), option.widget)
                         .height();
    m.cardHeader = m.line + 12;
    return m;
}

QColor mix(const QColor &a, const QColor &b, qreal t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor statusColor(ToolCallStatus status, const QPalette &palette)
{
    const bool dark = isDark(palette);
    switch (status) {
    case ToolCallStatus::Pending: return mix(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.5);
    case ToolCallStatus::Running: return palette.color(QPalette::Highlight);
    case ToolCallStatus::Ok: return dark ? QColor(0x66, 0xbb, 0x6a) : QColor(0x2e, 0x7d, 0x32);
    case ToolCallStatus::Error: return dark ? QColor(0xef, 0x53, 0x50) : QColor(0xc6, 0x28, 0x28);
    case ToolCallStatus::Denied: return dark ? QColor(0xff, 0xa7, 0x26) : QColor(0xe6, 0x51, 0x00);
    }
    return palette.color(QPalette::Text);
}

QColor errorColor(const QPalette &palette)
{
    return statusColor(ToolCallStatus::Error, palette);
}

QColor mutedText(const QPalette &palette)
{
    return mix(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.45);
}

int estimateLines(const QString &text, int textWidth, qreal charWidth)
{
    if (text.isEmpty())
        return 1;
    const qsizetype newlines = text.count(u'\n');
    const qreal perLine = std::max<qreal>(1, textWidth / std::max<qreal>(1, charWidth));
    return int(newlines + 1 + qreal(text.size()) / perLine);
}

QString formatDuration(qint64 ms)
{
    if (ms < 0)
        return {};
    if (ms < 1000)
        return ConversationDelegate::tr("%1 ms").arg(ms);
    if (ms < 60000)
        return ConversationDelegate::tr("%1 s").arg(QLocale().toString(ms / 1000.0, 'f', 1));
    const qint64 seconds = ms / 1000;
    return ConversationDelegate::tr("%1:%2 min").arg(seconds / 60).arg(seconds % 60, 2, 10, QChar(u'0'));
}

QString formatElapsed(const QDateTime &since)
{
    const qint64 seconds = std::max<qint64>(0, since.secsTo(QDateTime::currentDateTime()));
    return u"%1:%2"_s.arg(seconds / 60).arg(seconds % 60, 2, 10, QChar(u'0'));
}

// The argument a reader wants on a collapsed card: the command, the path, the query...
QString argumentSummary(const QString &arguments)
{
    const QJsonObject object = QJsonDocument::fromJson(arguments.left(kMaxArgumentChars).toUtf8()).object();
    for (const auto key : {"command"_L1, "cmd"_L1, "path"_L1, "file_path"_L1, "pattern"_L1, "url"_L1, "query"_L1}) {
        const QJsonValue value = object.value(key);
        if (value.isString())
            return value.toString().simplified();
    }
    return arguments.left(300).simplified();
}

QString prettyArguments(const QString &arguments)
{
    const QString head = arguments.left(kMaxArgumentChars);
    const QJsonDocument document = QJsonDocument::fromJson(head.toUtf8());
    QString text = document.isNull() ? head : QString::fromUtf8(document.toJson(QJsonDocument::Indented)).trimmed();
    if (arguments.size() > kMaxArgumentChars)
        text += u'\n' % ConversationDelegate::tr("… %1 more characters").arg(arguments.size() - kMaxArgumentChars);
    return text;
}

QString firstLines(const QString &text, int maxLines, bool *cut)
{
    qsizetype pos = 0;
    for (int i = 0; i < maxLines; ++i) {
        pos = text.indexOf(u'\n', pos);
        if (pos < 0)
            return text;
        ++pos;
    }
    *cut = true;
    return text.left(pos - 1);
}

std::unique_ptr<QTextDocument> makeDocument(const QFont &font, int width)
{
    auto doc = std::make_unique<QTextDocument>();
    doc->setDocumentMargin(0);
    doc->setDefaultFont(font);
    doc->setUndoRedoEnabled(false);
    doc->setTextWidth(std::max(20, width));
    return doc;
}

void shadeCodeBlocks(QTextDocument *doc, const QPalette &palette)
{
    const QColor background = mix(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.07);
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        const QTextBlockFormat format = block.blockFormat();
        if (format.hasProperty(QTextFormat::BlockCodeFence) || format.hasProperty(QTextFormat::BlockCodeLanguage)
            || format.nonBreakableLines()) {
            QTextBlockFormat shaded;
            shaded.setBackground(background);
            QTextCursor(block).mergeBlockFormat(shaded);
        }
    }
}

void colourDiff(QTextDocument *doc, const QPalette &palette)
{
    const bool dark = isDark(palette);
    const QColor added = dark ? QColor(0x81, 0xc7, 0x84) : QColor(0x1b, 0x5e, 0x20);
    const QColor removed = dark ? QColor(0xe5, 0x73, 0x73) : QColor(0xb7, 0x1c, 0x1c);
    const QColor hunk = palette.color(QPalette::Link);
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        const QString text = block.text();
        QColor colour;
        if (text.startsWith(u"+++"_s) || text.startsWith(u"---"_s))
            colour = mutedText(palette);
        else if (text.startsWith(u'+'))
            colour = added;
        else if (text.startsWith(u'-'))
            colour = removed;
        else if (text.startsWith(u"@@"_s))
            colour = hunk;
        if (!colour.isValid())
            continue;
        QTextCursor cursor(block);
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        QTextCharFormat format;
        format.setForeground(colour);
        cursor.mergeCharFormat(format);
    }
}

void drawDocument(QPainter *painter, QTextDocument *doc, const QPoint &pos, const QPalette &palette,
                  const QColor &textColour = {})
{
    painter->save();
    painter->translate(pos);
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette = palette;
    if (textColour.isValid())
        context.palette.setColor(QPalette::Text, textColour);
    doc->documentLayout()->draw(painter, context);
    painter->restore();
}

int docHeight(const QTextDocument *doc)
{
    return int(std::ceil(doc->size().height()));
}

QString roleTitle(ConversationRowKind kind, const QString &text)
{
    switch (kind) {
    case ConversationRowKind::User: return ConversationDelegate::tr("You");
    case ConversationRowKind::Assistant: return ConversationDelegate::tr("Assistant");
    case ConversationRowKind::System:
        return text.startsWith("[Context Compaction]"_L1) ? ConversationDelegate::tr("Compaction checkpoint")
                                                          : ConversationDelegate::tr("System note");
    default: return {};
    }
}

QString actionText(ConversationAction action)
{
    switch (action) {
    case ConversationAction::AllowOnce: return ConversationDelegate::tr("Allow once");
    case ConversationAction::AllowForSession: return ConversationDelegate::tr("Allow for this session");
    case ConversationAction::Deny: return ConversationDelegate::tr("Deny");
    case ConversationAction::Retry: return ConversationDelegate::tr("Retry");
    case ConversationAction::Skip: return ConversationDelegate::tr("Skip");
    default: return {};
    }
}

QSize buttonSize(const QStyleOptionViewItem &option, const QString &text)
{
    const QStyle *style = option.widget ? option.widget->style() : QApplication::style();
    QStyleOptionButton button;
    button.text = text;
    button.fontMetrics = option.fontMetrics;
    const QSize textSize = option.fontMetrics.size(Qt::TextShowMnemonic, text);
    return style->sizeFromContents(QStyle::CT_PushButton, &button, textSize, option.widget)
        .expandedTo(QSize(72, 0));
}

ConversationRowKind kindOf(const QModelIndex &index)
{
    return ConversationRowKind(index.data(ConversationModel::KindRole).toInt());
}

quint64 idOf(const QModelIndex &index)
{
    return index.data(ConversationModel::ItemIdRole).toULongLong();
}

} // namespace

ConversationDelegate::ConversationDelegate(QObject *parent)
    : QAbstractItemDelegate(parent)
{
    m_layouts.setMaxCost(256);
}

ConversationDelegate::~ConversationDelegate() = default;

void ConversationDelegate::setWidth(int width)
{
    if (width == m_width)
        return;
    m_width = width;
    clear();
}

int ConversationDelegate::effectiveWidth(const QStyleOptionViewItem &option) const
{
    if (m_width > 0)
        return m_width;
    return option.rect.width() > 0 ? option.rect.width() : 600;
}

void ConversationDelegate::invalidate(quint64 itemId)
{
    m_layouts.remove(itemId);
    m_estimates.remove(itemId);
}

void ConversationDelegate::forget(quint64 itemId)
{
    m_layouts.remove(itemId);
    m_heights.remove(itemId);
    m_estimates.remove(itemId);
}

void ConversationDelegate::clear()
{
    m_layouts.clear();
    m_heights.clear();
    m_estimates.clear();
}

int ConversationDelegate::laidOutRowCount() const
{
    return int(m_layouts.size());
}

void ConversationDelegate::setCacheCapacity(int rows)
{
    m_layouts.setMaxCost(std::max(8, rows));
}

int ConversationDelegate::cacheCapacity() const
{
    return int(m_layouts.maxCost());
}

void ConversationDelegate::setHovered(quint64 itemId, ConversationAction action)
{
    m_hoverItem = itemId;
    m_hoverAction = action;
}

void ConversationDelegate::setPressed(quint64 itemId, ConversationAction action)
{
    m_pressedItem = itemId;
    m_pressedAction = action;
}

void ConversationDelegate::setFocused(quint64 itemId, ConversationAction action, bool viewHasFocus)
{
    m_focusItem = itemId;
    m_focusAction = action;
    m_viewHasFocus = viewHasFocus;
}

QList<ConversationAction> ConversationDelegate::actions(const QModelIndex &index)
{
    switch (kindOf(index)) {
    case ConversationRowKind::ToolCall:
        if (index.data(ConversationModel::OffloadedRole).toBool())
            return {ConversationAction::ToggleExpanded, ConversationAction::OpenOffload};
        return {ConversationAction::ToggleExpanded};
    case ConversationRowKind::Compaction:
        return {ConversationAction::OpenCompaction};
    case ConversationRowKind::Error:
        if (index.data(ConversationModel::RetryableRole).toBool())
            return {ConversationAction::Retry};
        return {};
    case ConversationRowKind::Approval:
        if (ApprovalState(index.data(ConversationModel::ApprovalStateRole).toInt()) == ApprovalState::Pending)
            return {ConversationAction::AllowOnce, ConversationAction::AllowForSession, ConversationAction::Deny};
        return {};
    case ConversationRowKind::Progress:
        if (index.data(ConversationModel::SkippableRole).toBool())
            return {ConversationAction::Skip};
        return {};
    default:
        return {};
    }
}

int ConversationDelegate::estimateHeight(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const Metrics &m = metricsFor(option);
    const int width = effectiveWidth(option);
    const int textWidth = width - 2 * kSide - 2 * kPad;
    switch (kindOf(index)) {
    case ConversationRowKind::User:
    case ConversationRowKind::Assistant:
    case ConversationRowKind::System: {
        const QString text = index.data(ConversationModel::TextRole).toString();
        const int lines = estimateLines(text, textWidth - width / 8, m.charWidth);
        return 2 * kGap + 2 * kPad + m.smallLine + 4 + lines * m.line;
    }
    case ConversationRowKind::ToolCall: {
        int height = 2 * kGap + m.cardHeader;
        if (index.data(ConversationModel::ExpandedRole).toBool()) {
            const QString args = index.data(ConversationModel::ToolArgumentsRole).toString();
            const QString result = index.data(ConversationModel::TextRole).toString();
            const int argLines = std::min(estimateLines(args, textWidth, m.monoCharWidth) + 4, 800);
            const int resultLines = std::min(estimateLines(result, textWidth, m.monoCharWidth), kMaxResultLines + 1);
            height += kPad + 2 * (m.smallLine + 4 + 12 + kPad) + (argLines + resultLines) * m.monoLine;
        }
        return height;
    }
    case ConversationRowKind::Compaction:
        return 2 * kGap + m.line + 6;
    case ConversationRowKind::Error: {
        const QString text = index.data(ConversationModel::TextRole).toString();
        int height = 2 * kGap + 2 * kPad + estimateLines(text, textWidth - 28, m.charWidth) * m.line;
        if (index.data(ConversationModel::RetryableRole).toBool())
            height += 8 + m.buttonHeight;
        return height;
    }
    case ConversationRowKind::Approval: {
        const QString text = index.data(ConversationModel::TextRole).toString();
        const int lines = std::min(estimateLines(text, textWidth - 12, m.monoCharWidth), kMaxDetailLines + 1);
        return 2 * kGap + 2 * kPad + m.line + 6 + lines * m.monoLine + 12 + 8 + std::max(m.buttonHeight, m.line);
    }
    case ConversationRowKind::Progress:
        return 2 * kGap + 2 * 6 + std::max(m.buttonHeight, m.line);
    }
    return 2 * kGap + m.line;
}

QSize ConversationDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const int width = effectiveWidth(option);
    const quint64 id = idOf(index);
    if (const auto it = m_heights.constFind(id); it != m_heights.cend())
        return {width, *it};
    // Layouts run over every row: remember estimates so a relayout costs a lookup per row.
    auto estimate = m_estimates.constFind(id);
    if (estimate == m_estimates.cend())
        estimate = m_estimates.insert(id, estimateHeight(option, index));
    return {width, *estimate};
}

bool ConversationDelegate::prepare(const QStyleOptionViewItem &option, const QModelIndex &index)
{
    const quint64 id = idOf(index);
    if (m_layouts.contains(id))
        return false;
    const int before = sizeHint(option, index).height();
    layoutFor(option, index);
    return m_heights.value(id, before) != before;
}

RowLayout *ConversationDelegate::layoutFor(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const quint64 id = idOf(index);
    if (RowLayout *layout = m_layouts.object(id))
        return layout;
    RowLayout *layout = buildLayout(option, index);
    ++m_layoutsBuilt;
    m_heights.insert(id, layout->height);
    m_layouts.insert(id, layout);
    return layout;
}

RowLayout *ConversationDelegate::buildLayout(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const Metrics &m = metricsFor(option);
    const QPalette &palette = option.palette;
    auto layout = std::make_unique<RowLayout>();
    RowLayout &l = *layout;
    l.width = effectiveWidth(option);
    const QRect outer(kSide, kGap, l.width - 2 * kSide, 0);
    const ConversationRowKind kind = kindOf(index);
    const QString text = index.data(ConversationModel::TextRole).toString();

    auto placeButtonsRight = [&](int top, const QList<ConversationAction> &actions, int right) {
        int x = right;
        for (auto it = actions.crbegin(); it != actions.crend(); ++it) {
            const QString label = actionText(*it);
            const QSize size = buttonSize(option, label);
            x -= size.width();
            l.buttons.append({*it, QRect(QPoint(x, top), QSize(size.width(), m.buttonHeight)), label});
            x -= 6;
        }
    };

    switch (kind) {
    case ConversationRowKind::User:
    case ConversationRowKind::Assistant:
    case ConversationRowKind::System: {
        QRect frame = outer;
        if (kind == ConversationRowKind::User)
            frame.setLeft(outer.left() + std::min(96, l.width / 8));
        const int textWidth = frame.width() - 2 * kPad;
        l.header = QRect(frame.left() + kPad, frame.top() + kPad, textWidth, m.smallLine);
        l.body = makeDocument(m.font, textWidth);
        l.body->setMarkdown(text, QTextDocument::MarkdownDialectGitHub);
        shadeCodeBlocks(l.body.get(), palette);
        l.bodyPos = QPoint(frame.left() + kPad, l.header.bottom() + 1 + 4);
        frame.setBottom(l.bodyPos.y() + docHeight(l.body.get()) + kPad - 1);
        l.frame = frame;
        break;
    }
    case ConversationRowKind::ToolCall: {
        QRect frame = outer;
        l.header = QRect(frame.left(), frame.top(), frame.width(), m.cardHeader);
        l.headerSummary = argumentSummary(index.data(ConversationModel::ToolArgumentsRole).toString());
        if (index.data(ConversationModel::OffloadedRole).toBool()) {
            const QFontMetrics sfm(m.small);
            const int badgeWidth = sfm.horizontalAdvance(tr("offloaded")) + 14;
            l.badge = QRect(frame.right() - kPad - badgeWidth, frame.top() + (m.cardHeader - sfm.height() - 4) / 2,
                            badgeWidth, sfm.height() + 4);
        }
        int bottom = l.header.bottom();
        if (index.data(ConversationModel::ExpandedRole).toBool()) {
            const int textWidth = frame.width() - 2 * kPad - 12;
            l.argumentsCaption = QPoint(frame.left() + kPad, bottom + 1 + kPad);
            l.arguments = makeDocument(m.mono, textWidth);
            l.arguments->setPlainText(prettyArguments(index.data(ConversationModel::ToolArgumentsRole).toString()));
            attachJsonHighlighting(l.arguments.get(), palette);
            l.argumentsBox = QRect(frame.left() + kPad, l.argumentsCaption.y() + m.smallLine + 4, frame.width() - 2 * kPad,
                                   docHeight(l.arguments.get()) + 12);
            l.resultCaption = QPoint(frame.left() + kPad, l.argumentsBox.bottom() + 1 + kPad);
            bool cut = false;
            QString resultText = firstLines(text, kMaxResultLines, &cut);
            const auto status = ToolCallStatus(index.data(ConversationModel::ToolStatusRole).toInt());
            if (status == ToolCallStatus::Pending)
                resultText = tr("No result yet.");
            else if (status == ToolCallStatus::Running)
                resultText = tr("Running…");
            else if (resultText.isEmpty())
                resultText = tr("(empty result)");
            if (cut || index.data(ConversationModel::ToolResultTruncatedRole).toBool())
                resultText += u"\n…"_s;
            l.result = makeDocument(m.mono, textWidth);
            l.result->setPlainText(resultText);
            l.resultBox = QRect(frame.left() + kPad, l.resultCaption.y() + m.smallLine + 4, frame.width() - 2 * kPad,
                                docHeight(l.result.get()) + 12);
            bottom = l.resultBox.bottom() + kPad;
        }
        frame.setBottom(bottom);
        l.frame = frame;
        break;
    }
    case ConversationRowKind::Compaction: {
        l.frame = QRect(outer.left(), outer.top(), outer.width(), m.line + 6);
        break;
    }
    case ConversationRowKind::Error: {
        QRect frame = outer;
        const int iconWidth = 28;
        const int textWidth = frame.width() - 2 * kPad - iconWidth;
        l.body = makeDocument(m.font, textWidth);
        l.body->setPlainText(text);
        l.bodyPos = QPoint(frame.left() + kPad + iconWidth, frame.top() + kPad);
        int bottom = l.bodyPos.y() + docHeight(l.body.get());
        const QList<ConversationAction> acts = actions(index);
        if (!acts.isEmpty()) {
            placeButtonsRight(bottom + 8, acts, frame.right() - kPad);
            bottom += 8 + m.buttonHeight;
        }
        frame.setBottom(bottom + kPad - 1);
        l.frame = frame;
        break;
    }
    case ConversationRowKind::Approval: {
        QRect frame = outer;
        l.header = QRect(frame.left() + kPad, frame.top() + kPad, frame.width() - 2 * kPad, m.line);
        const int textWidth = frame.width() - 2 * kPad - 12;
        bool cut = false;
        QString detail = firstLines(text, kMaxDetailLines, &cut);
        if (cut)
            detail += u'\n' % tr("… %1 more lines").arg(text.count(u'\n') + 1 - kMaxDetailLines);
        l.body = makeDocument(m.mono, textWidth);
        l.body->setPlainText(detail);
        if (index.data(ConversationModel::DetailIsDiffRole).toBool())
            colourDiff(l.body.get(), palette);
        l.argumentsBox = QRect(frame.left() + kPad, l.header.bottom() + 1 + 6, frame.width() - 2 * kPad,
                               docHeight(l.body.get()) + 12);
        l.bodyPos = l.argumentsBox.topLeft() + QPoint(6, 6);
        const int top = l.argumentsBox.bottom() + 1 + 8;
        const QList<ConversationAction> acts = actions(index);
        int x = frame.left() + kPad;
        for (ConversationAction action : acts) {
            const QString label = actionText(action);
            const QSize size = buttonSize(option, label);
            l.buttons.append({action, QRect(QPoint(x, top), QSize(size.width(), m.buttonHeight)), label});
            x += size.width() + 6;
        }
        const int rowHeight = acts.isEmpty() ? m.line : m.buttonHeight;
        l.statusLine = QRect(frame.left() + kPad, top, frame.width() - 2 * kPad, rowHeight);
        frame.setBottom(top + rowHeight + kPad - 1);
        l.frame = frame;
        break;
    }
    case ConversationRowKind::Progress: {
        QRect frame = outer;
        const int inner = std::max(m.buttonHeight, m.line);
        frame.setHeight(inner + 12);
        const QList<ConversationAction> acts = actions(index);
        placeButtonsRight(frame.top() + (frame.height() - m.buttonHeight) / 2, acts, frame.right() - kPad);
        const int textRight = l.buttons.isEmpty() ? frame.right() - kPad : l.buttons.constFirst().rect.left() - 8;
        l.statusLine = QRect(frame.left() + kPad + 22, frame.top(), textRight - frame.left() - kPad - 22, frame.height());
        l.frame = frame;
        break;
    }
    }
    l.height = l.frame.bottom() + 1 + kGap;
    return layout.release();
}

ConversationAction ConversationDelegate::actionAt(const QStyleOptionViewItem &option, const QModelIndex &index,
                                                  const QPoint &pos)
{
    if (!index.isValid() || !option.rect.contains(pos))
        return ConversationAction::None;
    const RowLayout *l = layoutFor(option, index);
    const QPoint local = pos - option.rect.topLeft();
    for (const RowLayout::Button &button : l->buttons) {
        if (button.rect.contains(local))
            return button.action;
    }
    switch (kindOf(index)) {
    case ConversationRowKind::ToolCall:
        if (l->badge.isValid() && l->badge.contains(local))
            return ConversationAction::OpenOffload;
        if (l->header.contains(local))
            return ConversationAction::ToggleExpanded;
        break;
    case ConversationRowKind::Compaction:
        if (l->frame.contains(local))
            return ConversationAction::OpenCompaction;
        break;
    default:
        break;
    }
    return ConversationAction::None;
}

QRect ConversationDelegate::actionRect(const QStyleOptionViewItem &option, const QModelIndex &index,
                                       ConversationAction action)
{
    if (!index.isValid())
        return {};
    const RowLayout *l = layoutFor(option, index);
    QRect rect;
    for (const RowLayout::Button &button : l->buttons) {
        if (button.action == action)
            rect = button.rect;
    }
    if (rect.isNull()) {
        switch (action) {
        case ConversationAction::OpenOffload: rect = l->badge; break;
        case ConversationAction::ToggleExpanded:
            // The header minus the badge, so a click on its centre toggles.
            rect = l->header;
            if (l->badge.isValid())
                rect.setRight(l->badge.left() - 1);
            break;
        case ConversationAction::OpenCompaction: rect = l->frame; break;
        default: break;
        }
    }
    if (rect.isNull())
        return {};
    return rect.translated(option.rect.topLeft());
}

void ConversationDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const Metrics &m = metricsFor(option);
    RowLayout *l = layoutFor(option, index);
    const QPalette &palette = option.palette;
    const ConversationRowKind kind = kindOf(index);
    const quint64 id = idOf(index);
    const QStyle *style = option.widget ? option.widget->style() : QApplication::style();
    const QColor text = palette.color(QPalette::Text);
    const QColor base = palette.color(QPalette::Base);
    const QColor border = mix(base, text, 0.22);
    const QColor muted = mutedText(palette);

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->translate(option.rect.topLeft());
    painter->setClipRect(QRect(0, 0, option.rect.width(), option.rect.height()));

    if (option.state & QStyle::State_Selected) {
        QColor selection = palette.color(QPalette::Highlight);
        selection.setAlphaF(0.18f);
        painter->fillRect(QRect(0, 0, option.rect.width(), option.rect.height()), selection);
    }

    auto drawButtons = [&] {
        // CE_PushButton draws its label with the painter's font.
        painter->setFont(option.font);
        for (const RowLayout::Button &button : std::as_const(l->buttons)) {
            QStyleOptionButton opt;
            if (option.widget)
                opt.initFrom(option.widget);
            opt.rect = button.rect;
            opt.text = button.text;
            opt.palette = palette;
            opt.fontMetrics = option.fontMetrics;
            opt.state = QStyle::State_Enabled | QStyle::State_Raised;
            if (id == m_hoverItem && button.action == m_hoverAction)
                opt.state |= QStyle::State_MouseOver;
            if (id == m_pressedItem && button.action == m_pressedAction)
                opt.state |= QStyle::State_Sunken;
            if (m_viewHasFocus && id == m_focusItem && button.action == m_focusAction)
                opt.state |= QStyle::State_HasFocus;
            style->drawControl(QStyle::CE_PushButton, &opt, painter, option.widget);
        }
    };
    auto drawFocusFrame = [&](ConversationAction action, const QRect &rect) {
        if (!m_viewHasFocus || id != m_focusItem || action != m_focusAction)
            return;
        QStyleOptionFocusRect focus;
        if (option.widget)
            focus.initFrom(option.widget);
        focus.rect = rect;
        focus.palette = palette;
        style->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, painter, option.widget);
    };

    switch (kind) {
    case ConversationRowKind::User:
    case ConversationRowKind::Assistant:
    case ConversationRowKind::System: {
        const QString body = index.data(ConversationModel::TextRole).toString();
        if (kind == ConversationRowKind::User) {
            painter->setPen(Qt::NoPen);
            painter->setBrush(mix(base, palette.color(QPalette::Highlight), isDark(palette) ? 0.22 : 0.10));
            painter->drawRoundedRect(QRectF(l->frame).adjusted(0.5, 0.5, -0.5, -0.5), 8, 8);
        } else if (kind == ConversationRowKind::System) {
            painter->setPen(QPen(border, 1, Qt::DashLine));
            painter->setBrush(Qt::NoBrush);
            painter->drawRoundedRect(QRectF(l->frame).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
        }
        painter->setFont(m.small);
        painter->setPen(muted);
        QString title = roleTitle(kind, body);
        if (index.data(ConversationModel::StreamingRole).toBool())
            title = tr("%1 · writing…").arg(title);
        painter->drawText(l->header, Qt::AlignLeft | Qt::AlignVCenter, title);
        const QDateTime when = index.data(ConversationModel::TimestampRole).toDateTime();
        if (when.isValid())
            painter->drawText(l->header, Qt::AlignRight | Qt::AlignVCenter,
                              QLocale().toString(when.time(), QLocale::ShortFormat));
        drawDocument(painter, l->body.get(), l->bodyPos, palette,
                     kind == ConversationRowKind::System ? muted : QColor());
        break;
    }
    case ConversationRowKind::ToolCall: {
        const auto status = ToolCallStatus(index.data(ConversationModel::ToolStatusRole).toInt());
        const bool expanded = index.data(ConversationModel::ExpandedRole).toBool();
        const QColor accent = statusColor(status, palette);
        painter->setPen(QPen(border, 1));
        painter->setBrush(mix(base, text, 0.035));
        painter->drawRoundedRect(QRectF(l->frame).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
        if (id == m_hoverItem && m_hoverAction == ConversationAction::ToggleExpanded) {
            painter->setPen(Qt::NoPen);
            painter->setBrush(mix(base, text, 0.07));
            painter->drawRoundedRect(QRectF(l->header).adjusted(1, 1, -1, -1), 5, 5);
        }
        // Accent bar in the status colour.
        painter->fillRect(QRect(l->frame.left() + 1, l->frame.top() + 4, 3, l->frame.height() - 8), accent);

        int x = l->header.left() + kPad;
        const int midY = l->header.center().y();
        QStyleOption arrow;
        if (option.widget)
            arrow.initFrom(option.widget);
        arrow.palette = palette;
        arrow.rect = QRect(x, midY - 5, 10, 10);
        style->drawPrimitive(expanded ? QStyle::PE_IndicatorArrowDown : QStyle::PE_IndicatorArrowRight, &arrow,
                             painter, option.widget);
        x += 16;
        painter->setPen(Qt::NoPen);
        painter->setBrush(accent);
        painter->drawEllipse(QPointF(x + 4, midY + 0.5), 4, 4);
        x += 14;

        QString statusText = ConversationModel::statusLabel(status);
        if (status == ToolCallStatus::Running) {
            const QDateTime started = index.data(ConversationModel::StartedAtRole).toDateTime();
            if (started.isValid())
                statusText = tr("running %1").arg(formatElapsed(started));
        }
        if (const int removed = index.data(ConversationModel::RedactedRole).toInt(); removed > 0)
            statusText += u" · "_s + tr("%n secret(s) removed", nullptr, removed);
        painter->setFont(m.small);
        painter->setPen(accent);
        const QFontMetrics sfm(m.small);
        painter->drawText(QRect(x, l->header.top(), sfm.horizontalAdvance(statusText) + 2, l->header.height()),
                          Qt::AlignLeft | Qt::AlignVCenter, statusText);
        x += sfm.horizontalAdvance(statusText) + 10;

        int right = l->header.right() - kPad;
        if (l->badge.isValid()) {
            const QColor link = palette.color(QPalette::Link);
            painter->setPen(QPen(link, 1));
            QColor fill = link;
            fill.setAlphaF(id == m_hoverItem && m_hoverAction == ConversationAction::OpenOffload ? 0.25f : 0.12f);
            painter->setBrush(fill);
            painter->drawRoundedRect(QRectF(l->badge).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
            painter->drawText(l->badge, Qt::AlignCenter, tr("offloaded"));
            drawFocusFrame(ConversationAction::OpenOffload, l->badge.adjusted(-2, -2, 2, 2));
            right = l->badge.left() - 8;
        }
        const qint64 duration = index.data(ConversationModel::ToolDurationRole).toLongLong();
        if (duration >= 0) {
            const QString durationText = formatDuration(duration);
            painter->setPen(muted);
            const int w = sfm.horizontalAdvance(durationText);
            painter->drawText(QRect(right - w, l->header.top(), w + 1, l->header.height()),
                              Qt::AlignRight | Qt::AlignVCenter, durationText);
            right -= w + 10;
        }

        const QString name = index.data(ConversationModel::ToolNameRole).toString();
        painter->setFont(m.bold);
        painter->setPen(text);
        const QFontMetrics bfm(m.bold);
        const QString elidedName = bfm.elidedText(name, Qt::ElideRight, std::max(0, right - x));
        painter->drawText(QRect(x, l->header.top(), right - x, l->header.height()), Qt::AlignLeft | Qt::AlignVCenter,
                          elidedName);
        x += bfm.horizontalAdvance(elidedName) + 10;
        if (right - x > 20) {
            painter->setFont(m.mono);
            painter->setPen(muted);
            const QFontMetrics mfm(m.mono);
            painter->drawText(QRect(x, l->header.top(), right - x, l->header.height()), Qt::AlignLeft | Qt::AlignVCenter,
                              mfm.elidedText(l->headerSummary, Qt::ElideRight, right - x));
        }
        QRect toggleRect = l->header.adjusted(2, 2, -2, -2);
        if (l->badge.isValid())
            toggleRect.setRight(l->badge.left() - 4);
        drawFocusFrame(ConversationAction::ToggleExpanded, toggleRect);

        if (expanded && l->arguments) {
            const QColor codeBackground = mix(base, text, 0.06);
            painter->setFont(m.small);
            painter->setPen(muted);
            painter->drawText(QRect(l->argumentsCaption, QSize(l->argumentsBox.width(), m.smallLine)),
                              Qt::AlignLeft | Qt::AlignVCenter, tr("Arguments"));
            painter->fillRect(l->argumentsBox, codeBackground);
            drawDocument(painter, l->arguments.get(), l->argumentsBox.topLeft() + QPoint(6, 6), palette);

            QString resultCaption = tr("Result");
            const qint64 length = index.data(ConversationModel::ToolResultLengthRole).toLongLong();
            if (index.data(ConversationModel::ToolResultTruncatedRole).toBool())
                resultCaption = tr("Result (preview of %1 characters)").arg(QLocale().toString(length));
            painter->setPen(muted);
            painter->drawText(QRect(l->resultCaption, QSize(l->resultBox.width(), m.smallLine)),
                              Qt::AlignLeft | Qt::AlignVCenter, resultCaption);
            painter->fillRect(l->resultBox, codeBackground);
            drawDocument(painter, l->result.get(), l->resultBox.topLeft() + QPoint(6, 6), palette,
                         status == ToolCallStatus::Error ? accent : QColor());
        }
        break;
    }
    case ConversationRowKind::Compaction: {
        const CompactionMarker marker{index.data(ConversationModel::RecordIdRole).toString(),
                                      Tier(index.data(ConversationModel::TierRole).toInt()),
                                      index.data(ConversationModel::TokensBeforeRole).toLongLong(),
                                      index.data(ConversationModel::TokensAfterRole).toLongLong(),
                                      index.data(ConversationModel::AnchorsChangedRole).toInt(),
                                      index.data(ConversationModel::OffloadCountRole).toInt()};
        const bool hovered = id == m_hoverItem && m_hoverAction == ConversationAction::OpenCompaction;
        QFont font = m.small;
        font.setUnderline(hovered);
        const QFontMetrics sfm(font);
        const QString label = sfm.elidedText(u"⟲ "_s % ConversationModel::compactionLabel(marker), Qt::ElideMiddle,
                                             l->frame.width() - 60);
        const int labelWidth = sfm.horizontalAdvance(label) + 16;
        const QRect labelRect(l->frame.center().x() - labelWidth / 2, l->frame.top(), labelWidth, l->frame.height());
        const QColor link = palette.color(QPalette::Link);
        const int y = l->frame.center().y();
        QColor line = link;
        line.setAlphaF(0.5f);
        painter->setPen(QPen(line, 1));
        painter->drawLine(l->frame.left(), y, labelRect.left(), y);
        painter->drawLine(labelRect.right(), y, l->frame.right(), y);
        painter->setFont(font);
        painter->setPen(link);
        painter->drawText(labelRect, Qt::AlignCenter, label);
        drawFocusFrame(ConversationAction::OpenCompaction, labelRect);
        break;
    }
    case ConversationRowKind::Error: {
        const QColor red = errorColor(palette);
        painter->setPen(QPen(red, 1));
        painter->setBrush(mix(base, red, isDark(palette) ? 0.18 : 0.08));
        painter->drawRoundedRect(QRectF(l->frame).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
        // A warning sign drawn as a triangle with "!" so it needs no icon theme.
        const QRectF sign(l->frame.left() + kPad, l->bodyPos.y() + 1, 16, 15);
        QPainterPath triangle;
        triangle.moveTo(sign.center().x(), sign.top());
        triangle.lineTo(sign.right(), sign.bottom());
        triangle.lineTo(sign.left(), sign.bottom());
        triangle.closeSubpath();
        painter->setPen(Qt::NoPen);
        painter->setBrush(red);
        painter->drawPath(triangle);
        painter->setPen(base);
        painter->setFont(m.bold);
        painter->drawText(sign.adjusted(0, 3, 0, 0), Qt::AlignCenter, u"!"_s);
        drawDocument(painter, l->body.get(), l->bodyPos, palette);
        drawButtons();
        break;
    }
    case ConversationRowKind::Approval: {
        const auto state = ApprovalState(index.data(ConversationModel::ApprovalStateRole).toInt());
        const QColor accent = state == ApprovalState::Pending ? palette.color(QPalette::Highlight) : border;
        painter->setPen(QPen(accent, state == ApprovalState::Pending ? 2 : 1));
        painter->setBrush(mix(base, palette.color(QPalette::Highlight), state == ApprovalState::Pending ? 0.06 : 0.0));
        painter->drawRoundedRect(QRectF(l->frame).adjusted(1, 1, -1, -1), 6, 6);
        painter->setFont(m.bold);
        painter->setPen(text);
        const QString tool = index.data(ConversationModel::ToolNameRole).toString();
        const QString title = index.data(ConversationModel::DetailIsDiffRole).toBool()
                                  ? tr("Approval needed: %1 wants to change files").arg(tool)
                                  : tr("Approval needed: %1 wants to run").arg(tool);
        painter->drawText(l->header, Qt::AlignLeft | Qt::AlignVCenter,
                          QFontMetrics(m.bold).elidedText(title, Qt::ElideRight, l->header.width()));
        painter->fillRect(l->argumentsBox, mix(base, text, 0.06));
        drawDocument(painter, l->body.get(), l->bodyPos, palette);
        if (state == ApprovalState::Pending) {
            drawButtons();
        } else {
            painter->setFont(m.font);
            painter->setPen(state == ApprovalState::Denied ? statusColor(ToolCallStatus::Denied, palette)
                                                           : statusColor(ToolCallStatus::Ok, palette));
            painter->drawText(l->statusLine, Qt::AlignLeft | Qt::AlignVCenter,
                              ConversationModel::approvalStateLabel(state));
        }
        break;
    }
    case ConversationRowKind::Progress: {
        const QColor highlight = palette.color(QPalette::Highlight);
        painter->setPen(QPen(mix(base, highlight, 0.5), 1));
        painter->setBrush(mix(base, highlight, 0.08));
        painter->drawRoundedRect(QRectF(l->frame).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
        // An hourglass-like ring: a circle with a quarter arc in the highlight colour.
        const QRectF ring(l->frame.left() + kPad, l->frame.center().y() - 6, 12, 12);
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(mix(base, highlight, 0.35), 2));
        painter->drawEllipse(ring);
        painter->setPen(QPen(highlight, 2));
        const int phase = int(QDateTime::currentMSecsSinceEpoch() / 1000 % 4);
        painter->drawArc(ring, (90 - phase * 90) * 16, -90 * 16);

        const QString label = index.data(Qt::DisplayRole).toString();
        const QDateTime started = index.data(ConversationModel::StartedAtRole).toDateTime();
        const QString elapsed = started.isValid() ? tr("%1 elapsed").arg(formatElapsed(started)) : QString();
        painter->setFont(m.font);
        painter->setPen(text);
        const QFontMetrics fm(m.font);
        const int elapsedWidth = QFontMetrics(m.small).horizontalAdvance(elapsed) + 12;
        const QRect labelRect = l->statusLine.adjusted(0, 0, -elapsedWidth, 0);
        painter->drawText(labelRect, Qt::AlignLeft | Qt::AlignVCenter,
                          fm.elidedText(label, Qt::ElideRight, labelRect.width()));
        painter->setFont(m.small);
        painter->setPen(muted);
        painter->drawText(l->statusLine, Qt::AlignRight | Qt::AlignVCenter, elapsed);
        drawButtons();
        break;
    }
    }
    painter->restore();
}

} // namespace wl
