#include "conversation/ConversationDelegate.h"
#include "conversation/ConversationModel.h"
#include "conversation/rows/RowText.h"
#include "model/Message.h"

#include <QApplication>
#include <QLocale>
#include <QPainter>
#include <QStyleFactory>
#include <QStyleOptionViewItem>
#include <QTextDocument>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

// Each row kind through ConversationDelegate alone (no view): its height, the rects of its
// buttons and links, and where its painting puts ink.
namespace {

constexpr int kWidth = 800;

ToolCall call(const QString &id, const QString &name, const QString &arguments)
{
    return ToolCall{id, name, arguments, true};
}

QString longText(int sentences)
{
    QString text;
    for (int i = 0; i < sentences; ++i)
        text += u"Sentence %1 says something about the build and the log it left behind. "_s.arg(i);
    return text;
}

struct Rows
{
    ConversationModel model;
    ConversationDelegate delegate;
    QPalette palette = QApplication::palette();

    Rows() { delegate.setWidth(kWidth); }

    QModelIndex last() const { return model.index(model.rowCount() - 1); }

    QStyleOptionViewItem option(const QModelIndex &index)
    {
        QStyleOptionViewItem o;
        o.font = QApplication::font();
        o.fontMetrics = QFontMetrics(o.font);
        o.palette = palette;
        o.state = QStyle::State_Enabled;
        o.rect = QRect(0, 0, kWidth, 0);
        delegate.prepare(o, index);
        o.rect.setHeight(delegate.sizeHint(o, index).height());
        return o;
    }
    int height(const QModelIndex &index) { return option(index).rect.height(); }
    QRect rect(const QModelIndex &index, ConversationAction action)
    {
        return delegate.actionRect(option(index), index, action);
    }
    ConversationAction at(const QModelIndex &index, const QPoint &pos)
    {
        return delegate.actionAt(option(index), index, pos);
    }
    QImage paint(const QModelIndex &index)
    {
        const QStyleOptionViewItem o = option(index);
        QImage image(o.rect.size(), QImage::Format_ARGB32_Premultiplied);
        image.fill(palette.color(QPalette::Base));
        QPainter painter(&image);
        delegate.paint(&painter, o, index);
        return image;
    }
    // The row's data changed: what ConversationView does on dataChanged.
    void changed(const QModelIndex &index)
    {
        delegate.invalidate(index.data(ConversationModel::ItemIdRole).toULongLong());
    }
};

// Pixels inside `area` that are not the background.
int inkIn(const QImage &image, const QRect &area, const QColor &background)
{
    int ink = 0;
    const QRect clipped = area.intersected(image.rect());
    for (int y = clipped.top(); y <= clipped.bottom(); ++y)
        for (int x = clipped.left(); x <= clipped.right(); ++x)
            ink += image.pixelColor(x, y) != background ? 1 : 0;
    return ink;
}

// The leftmost column holding any ink, -1 when the image is blank.
int leftmostInk(const QImage &image, const QColor &background)
{
    for (int x = 0; x < image.width(); ++x)
        if (inkIn(image, QRect(x, 0, 1, image.height()), background) > 0)
            return x;
    return -1;
}

bool reddish(const QColor &c)
{
    return c.red() > c.green() + 60 && c.red() > c.blue() + 60;
}

int reddishPixels(const QImage &image)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            count += reddish(image.pixelColor(x, y)) ? 1 : 0;
    return count;
}

} // namespace

class TestConversationRows : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void messageRows();
    void userTextIsNotMarkdown();
    void assistantHeadingsStaySmall();
    void olderMessagesShowTheirDate();
    void toolCard();
    void toolCardOffloadBadge();
    void statusColourFollowsTheViews_data();
    void statusColourFollowsTheViews();
    void approvalRow();
    void compactionMarker();
    void progressRow();
    void errorRow();
};

void TestConversationRows::initTestCase()
{
    // One style on every machine, so geometry does not depend on the desktop.
    QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
}

void TestConversationRows::messageRows()
{
    Rows rows;
    rows.model.appendMessages({Message::user(u"Why does it fail?"_s), Message::assistant(u"Short answer."_s),
                               Message::assistant(longText(30)), Message::system(u"A note from the system."_s)});
    const QModelIndex user = rows.model.index(0), shortAnswer = rows.model.index(1), longAnswer = rows.model.index(2),
                      note = rows.model.index(3);
    QCOMPARE(ConversationRowKind(note.data(ConversationModel::KindRole).toInt()), ConversationRowKind::System);
    // Text wraps: thirty sentences take several more lines than one.
    const int lineHeight = QFontMetrics(QApplication::font()).lineSpacing();
    QVERIFY2(rows.height(longAnswer) > rows.height(shortAnswer) + 3 * lineHeight,
             qPrintable(u"%1 vs %2"_s.arg(rows.height(longAnswer)).arg(rows.height(shortAnswer))));
    QVERIFY(ConversationDelegate::actions(user).isEmpty());
    QCOMPARE(rows.rect(user, ConversationAction::ToggleExpanded), QRect());

    const QColor base = rows.palette.color(QPalette::Base);
    const QImage userImage = rows.paint(user);
    const QImage assistantImage = rows.paint(shortAnswer);
    const QImage noteImage = rows.paint(note);
    // The text is drawn: the lower half of each row (the body, under the title line) has ink.
    for (const QImage &image : {userImage, assistantImage, noteImage})
        QVERIFY(inkIn(image, QRect(0, image.height() / 2, image.width(), image.height() / 2), base) > 20);
    // The user's bubble is indented and filled; the assistant's text starts at the margin.
    const int userLeft = leftmostInk(userImage, base);
    const int assistantLeft = leftmostInk(assistantImage, base);
    QVERIFY2(assistantLeft > 0 && userLeft > assistantLeft + 50,
             qPrintable(u"%1 %2"_s.arg(userLeft).arg(assistantLeft)));
    QVERIFY(userImage.pixelColor(userLeft + 10, userImage.height() / 2) != base);
    // The system note has a frame at the margin, left of where the assistant's text starts.
    QVERIFY(leftmostInk(noteImage, base) < assistantLeft);
}

// A user's "# ..." line is what they typed, not a heading: the row is as tall as the same words
// without the mark, and the mark itself is drawn.
void TestConversationRows::userTextIsNotMarkdown()
{
    Rows rows;
    rows.model.appendMessages({Message::user(u"# AGENTS.md instructions for /repo"_s),
                               Message::user(u"AGENTS.md instructions for /repo"_s)});
    const QModelIndex marked = rows.model.index(0), plain = rows.model.index(1);
    QCOMPARE(rows.height(marked), rows.height(plain));
    // The "# " itself is drawn: the rows differ although they are the same size.
    QVERIFY(rows.paint(marked) != rows.paint(plain));
}

// The assistant's Markdown keeps its headings, but a level-1 heading is at most a little larger
// than the body, not a banner: its row is under one and a half lines taller than a bold line.
void TestConversationRows::assistantHeadingsStaySmall()
{
    Rows rows;
    rows.model.appendMessages({Message::assistant(u"# Plan\n\nRead the log."_s),
                               Message::assistant(u"**Plan**\n\nRead the log."_s)});
    const int lineHeight = QFontMetrics(QApplication::font()).lineSpacing();
    const int heading = rows.height(rows.model.index(0));
    const int bold = rows.height(rows.model.index(1));
    // Qt's own Markdown heading, uncapped, for comparison: what the row used to be.
    QTextDocument uncapped, plain;
    uncapped.setDefaultFont(QApplication::font());
    plain.setDefaultFont(QApplication::font());
    uncapped.setMarkdown(u"# Plan\n\nRead the log."_s);
    plain.setMarkdown(u"**Plan**\n\nRead the log."_s);
    const qreal uncappedExtra = uncapped.size().height() - plain.size().height();
    const QString figures = u"%1 vs %2 (line %3, uncapped extra %4)"_s.arg(heading).arg(bold).arg(lineHeight).arg(uncappedExtra);
    QVERIFY2(heading - bold < lineHeight * 3 / 4, qPrintable(figures));
    QVERIFY2(uncappedExtra > lineHeight * 3 / 4, qPrintable(figures)); // the cap is what keeps it small
    QVERIFY(heading >= bold); // still a heading: not smaller than the body
}

// A message from another day (an imported transcript's) shows its date, today's only the time.
void TestConversationRows::olderMessagesShowTheirDate()
{
    const QDate today(2026, 12, 1);
    const QDateTime morning(today, QTime(9, 30));
    const QDateTime february(QDate(2026, 2, 11), QTime(21, 46));
    QCOMPARE(formatRowTime(morning, today), QLocale().toString(QTime(9, 30), QLocale::ShortFormat));
    const QString older = formatRowTime(february, today);
    QCOMPARE(older, QLocale().toString(february, QLocale::ShortFormat));
    QVERIFY2(older.contains(QLocale().toString(QTime(21, 46), QLocale::ShortFormat)), qPrintable(older));
    QVERIFY2(older != formatRowTime(QDateTime(today, QTime(21, 46)), today), qPrintable(older));
}

void TestConversationRows::toolCard()
{
    Rows rows;
    rows.model.appendMessages({Message::assistant(u"Checking."_s,
                                                  {call(u"c1"_s, u"bash"_s, u"{\"command\":\"make\"}"_s)}),
                               Message::toolResult(u"c1"_s, u"line\n"_s.repeated(20) + u"error: it broke"_s, true)});
    const QModelIndex card = rows.model.indexForCallId(u"c1"_s);
    QVERIFY(card.isValid());
    QCOMPARE(ConversationDelegate::actions(card), QList<ConversationAction>{ConversationAction::ToggleExpanded});
    const int collapsed = rows.height(card);
    const QRect header = rows.rect(card, ConversationAction::ToggleExpanded);
    QVERIFY(header.isValid());
    QCOMPARE(rows.at(card, header.center()), ConversationAction::ToggleExpanded);
    QCOMPARE(rows.rect(card, ConversationAction::OpenOffload), QRect()); // not offloaded: no badge

    // The status colour (an error here) marks the card on its left edge.
    const QImage collapsedImage = rows.paint(card);
    QVERIFY(reddish(collapsedImage.pixelColor(14, collapsedImage.height() / 2)));

    QVERIFY(rows.model.setData(card, true, ConversationModel::ExpandedRole));
    rows.changed(card);
    const int expanded = rows.height(card);
    // Arguments and twenty-one result lines below the header.
    QVERIFY2(expanded > collapsed + 15 * QFontMetrics(QApplication::font()).lineSpacing(),
             qPrintable(u"%1 vs %2"_s.arg(expanded).arg(collapsed)));
    // The header keeps its place and still toggles; below it is no action.
    QCOMPARE(rows.rect(card, ConversationAction::ToggleExpanded), header);
    QCOMPARE(rows.at(card, QPoint(kWidth / 2, expanded - 20)), ConversationAction::None);
    // The error result is written in the status colour under the header.
    const QImage expandedImage = rows.paint(card);
    QVERIFY(reddishPixels(expandedImage.copy(0, header.bottom() + 1, kWidth, expanded - header.bottom() - 1)) > 50);
}

void TestConversationRows::toolCardOffloadBadge()
{
    Rows rows;
    rows.model.appendMessages({Message::assistant({}, {call(u"c2"_s, u"read_file"_s, u"{\"path\":\"big.log\"}"_s)})});
    rows.model.setToolResult(u"c2"_s, {ToolCallStatus::Ok,
                                       u"[offloaded: .waterline/tool_results/s/c2.txt | 900 lines]"_s, 12, true});
    const QModelIndex card = rows.model.indexForCallId(u"c2"_s);
    QCOMPARE(ConversationDelegate::actions(card),
             (QList<ConversationAction>{ConversationAction::ToggleExpanded, ConversationAction::OpenOffload}));
    const QRect toggle = rows.rect(card, ConversationAction::ToggleExpanded);
    const QRect badge = rows.rect(card, ConversationAction::OpenOffload);
    QVERIFY(toggle.isValid());
    QVERIFY(badge.isValid());
    // The badge sits at the right end of the header, and the toggle stops before it.
    QVERIFY(!toggle.intersects(badge));
    QVERIFY(badge.left() > kWidth / 2);
    QVERIFY(badge.top() >= toggle.top() && badge.bottom() <= toggle.bottom());
    QCOMPARE(rows.at(card, badge.center()), ConversationAction::OpenOffload);
    QCOMPARE(rows.at(card, toggle.center()), ConversationAction::ToggleExpanded);
    // The badge is painted (its label and frame in the link colour).
    QVERIFY(inkIn(rows.paint(card), badge, rows.palette.color(QPalette::Base)) > badge.width());
}

void TestConversationRows::statusColourFollowsTheViews_data()
{
    QTest::addColumn<QColor>("window");
    QTest::addColumn<QColor>("base");
    QTest::addColumn<QColor>("text");
    QTest::addColumn<QColor>("accent");
    // The row is painted on Base: Base decides which red reads on it, not the window around the view.
    QTest::newRow("light views in a dark window") << QColor(Qt::black) << QColor(Qt::white) << QColor(Qt::black)
                                                  << QColor(0xc6, 0x28, 0x28);
    QTest::newRow("dark views in a light window") << QColor(Qt::white) << QColor(0x1e, 0x21, 0x24)
                                                  << QColor(0xe6, 0xe8, 0xea) << QColor(0xef, 0x53, 0x50);
}

void TestConversationRows::statusColourFollowsTheViews()
{
    QFETCH(QColor, window);
    QFETCH(QColor, base);
    QFETCH(QColor, text);
    QFETCH(QColor, accent);
    Rows rows;
    rows.palette.setColor(QPalette::Window, window);
    rows.palette.setColor(QPalette::Base, base);
    rows.palette.setColor(QPalette::Text, text);
    rows.model.appendMessages({Message::assistant({}, {call(u"c4"_s, u"bash"_s, u"{\"command\":\"false\"}"_s)}),
                               Message::toolResult(u"c4"_s, u"exit 1"_s, true)});
    const QImage image = rows.paint(rows.model.indexForCallId(u"c4"_s));
    // The accent bar on the card's left edge is a plain fill in the error colour.
    QCOMPARE(image.pixelColor(14, image.height() / 2), accent);
}

void TestConversationRows::approvalRow()
{
    Rows rows;
    rows.model.addApprovalRequest({u"ap"_s, u"bash"_s, u"c3"_s, u"rm -rf build && cmake -B build"_s, false});
    const QModelIndex row = rows.model.indexForApproval(u"ap"_s);
    const QList<ConversationAction> buttons{ConversationAction::AllowOnce, ConversationAction::AllowForSession,
                                            ConversationAction::Deny};
    QCOMPARE(ConversationDelegate::actions(row), buttons);
    const int pendingHeight = rows.height(row);
    const QImage image = rows.paint(row);
    QRect previous;
    for (ConversationAction action : buttons) {
        const QRect button = rows.rect(row, action);
        QVERIFY(button.isValid());
        QVERIFY(QRect(0, 0, kWidth, pendingHeight).contains(button));
        QCOMPARE(rows.at(row, button.center()), action);
        // Left to right in tab order, on one line, not overlapping.
        if (previous.isValid()) {
            QVERIFY(button.left() > previous.right());
            QCOMPARE(button.top(), previous.top());
        }
        previous = button;
        // The button is drawn where its rect says.
        QVERIFY(inkIn(image, button, rows.palette.color(QPalette::Base)) > button.width());
    }
    // The command is shown (ink above the buttons, below the title).
    QVERIFY(inkIn(image, QRect(0, previous.top() - 30, kWidth, 25), rows.palette.color(QPalette::Base)) > 50);

    QVERIFY(rows.model.resolveApproval(u"ap"_s, ApprovalDecision::AllowOnce));
    rows.changed(row);
    QVERIFY(ConversationDelegate::actions(row).isEmpty());
    for (ConversationAction action : buttons)
        QCOMPARE(rows.rect(row, action), QRect());
    QCOMPARE(rows.at(row, previous.center()), ConversationAction::None);
    // The outcome line replaces the buttons: one text line instead of a button's height.
    QVERIFY(rows.height(row) <= pendingHeight);
}

void TestConversationRows::compactionMarker()
{
    Rows rows;
    rows.model.addCompactionMarker({u"rec-1"_s, Tier::Full, 118400, 31250, 3, 4});
    const QModelIndex marker = rows.last();
    QCOMPARE(ConversationDelegate::actions(marker), QList<ConversationAction>{ConversationAction::OpenCompaction});
    const int height = rows.height(marker);
    QVERIFY(height < 3 * QFontMetrics(QApplication::font()).lineSpacing());
    // The whole line opens the record.
    const QRect link = rows.rect(marker, ConversationAction::OpenCompaction);
    QVERIFY(link.width() > kWidth * 9 / 10);
    QCOMPARE(rows.at(marker, QPoint(30, height / 2)), ConversationAction::OpenCompaction);
    QCOMPARE(rows.at(marker, QPoint(kWidth - 30, height / 2)), ConversationAction::OpenCompaction);
    // Label in the middle, rules at the ends, all in the link colour.
    const QImage image = rows.paint(marker);
    const QColor base = rows.palette.color(QPalette::Base);
    QVERIFY(inkIn(image, QRect(kWidth / 2 - 60, 0, 120, height), base) > 100);
    QVERIFY(inkIn(image, QRect(20, 0, 30, height), base) > 0);
    const QColor linkColour = rows.palette.color(QPalette::Link);
    bool linkInk = false;
    for (int x = kWidth / 2 - 60; x < kWidth / 2 + 60 && !linkInk; ++x)
        for (int y = 0; y < height && !linkInk; ++y)
            linkInk = image.pixelColor(x, y) == linkColour;
    QVERIFY(linkInk);
}

void TestConversationRows::progressRow()
{
    Rows rows;
    ConversationProgress progress;
    progress.kind = ConversationProgress::Kind::Compacting;
    progress.messageCount = 12;
    progress.startedAt = QDateTime::currentDateTime().addSecs(-5);
    progress.skippable = true;
    rows.model.setProgress(progress);
    const QModelIndex row = rows.model.progressIndex();
    QCOMPARE(ConversationDelegate::actions(row), QList<ConversationAction>{ConversationAction::Skip});
    const QRect skip = rows.rect(row, ConversationAction::Skip);
    QVERIFY(skip.isValid());
    QVERIFY(skip.left() > kWidth * 3 / 4); // at the right end
    QCOMPARE(rows.at(row, skip.center()), ConversationAction::Skip);
    // The label is written between the ring and the button.
    const QImage image = rows.paint(row);
    QVERIFY(inkIn(image, QRect(60, 8, 200, image.height() - 16), rows.palette.color(QPalette::Base)) > 50);

    progress.skippable = false;
    rows.model.setProgress(progress);
    rows.changed(rows.model.progressIndex());
    QCOMPARE(rows.rect(rows.model.progressIndex(), ConversationAction::Skip), QRect());
    QCOMPARE(rows.at(rows.model.progressIndex(), skip.center()), ConversationAction::None);
}

void TestConversationRows::errorRow()
{
    Rows rows;
    rows.model.addError({u"e1"_s, u"The provider answered HTTP 503."_s, true});
    rows.model.addError({u"e2"_s, u"The provider answered HTTP 503."_s, false});
    const QModelIndex retryable = rows.model.index(0), final = rows.model.index(1);
    QCOMPARE(ConversationDelegate::actions(retryable), QList<ConversationAction>{ConversationAction::Retry});
    QVERIFY(ConversationDelegate::actions(final).isEmpty());
    const QRect retry = rows.rect(retryable, ConversationAction::Retry);
    QVERIFY(retry.isValid());
    QCOMPARE(rows.at(retryable, retry.center()), ConversationAction::Retry);
    QCOMPARE(rows.rect(final, ConversationAction::Retry), QRect());
    // The Retry line makes the row taller by about a button.
    QVERIFY(rows.height(retryable) >= rows.height(final) + retry.height());
    // Framed and signed in red, text beside the sign.
    const QImage image = rows.paint(final);
    QVERIFY(reddishPixels(image) > 60);
    QVERIFY(inkIn(image, QRect(60, 0, 200, image.height()), rows.palette.color(QPalette::Base)) > 50);
}

QTEST_MAIN(TestConversationRows)
#include "tst_conversationrows.moc"
