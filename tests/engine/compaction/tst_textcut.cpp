// The extractive summariser's text cuts: never inside a surrogate pair or before a combining mark,
// bounded whatever the input, and list blocks that keep the newest items.
#include "compaction/TextCut.h"

#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

class TestTextCut : public QObject
{
    Q_OBJECT

private:
    // No lone surrogate and no mark without a character before it.
    static bool isWhole(QStringView text)
    {
        for (qsizetype i = 0; i < text.size(); ++i) {
            if (text[i].isHighSurrogate() && (i + 1 >= text.size() || !text[i + 1].isLowSurrogate()))
                return false;
            if (text[i].isLowSurrogate() && (i == 0 || !text[i - 1].isHighSurrogate()))
                return false;
        }
        return text.isEmpty() || !text.front().isMark();
    }

private Q_SLOTS:
    void cut_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("max");
        QTest::addColumn<QString>("expected");
        QTest::newRow("fits") << u"hello"_s << 5 << u"hello"_s;
        QTest::newRow("cut with ellipsis") << u"hello world"_s << 6 << u"hello\u2026"_s;
        QTest::newRow("trailing space trimmed") << u"ab cd"_s << 4 << u"ab\u2026"_s;
        QTest::newRow("emoji not split") << u"ab\U0001F600cd"_s << 4 << u"ab\u2026"_s;
        QTest::newRow("emoji kept whole") << u"ab\U0001F600cd"_s << 5 << u"ab\U0001F600\u2026"_s;
        QTest::newRow("combining mark stays with its letter") << u"abe\u0301cd"_s << 4 << u"ab\u2026"_s;
        QTest::newRow("CJK") << u"上下文压缩引擎"_s << 4 << u"上下文\u2026"_s;
        QTest::newRow("empty") << QString() << 3 << QString();
    }

    void cut()
    {
        QFETCH(QString, text);
        QFETCH(int, max);
        QFETCH(QString, expected);
        const QString out = TextCut::cut(text, max);
        QCOMPARE(out, expected);
        QVERIFY(out.size() <= max);
        QVERIFY(isWhole(out));
        QString inPlace = text;
        TextCut::cutInPlace(inPlace, max);
        QCOMPARE(inPlace, expected);
    }

    void oneLine_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("max");
        QTest::addColumn<QString>("expected");
        QTest::newRow("already one line") << u"src/a.cpp"_s << 20 << u"src/a.cpp"_s;
        QTest::newRow("whitespace collapsed") << u"  make\n\t -j2  "_s << 20 << u"make -j2"_s;
        QTest::newRow("heading marker dropped") << u"## Plan\nstep"_s << 20 << u"Plan step"_s;
        QTest::newRow("quote marker dropped") << u"> quoted"_s << 20 << u"quoted"_s;
        QTest::newRow("cut") << u"one two three four"_s << 9 << u"one two\u2026"_s;
        QTest::newRow("only markers") << u"# > #"_s << 20 << QString();
    }

    void oneLine()
    {
        QFETCH(QString, text);
        QFETCH(int, max);
        QFETCH(QString, expected);
        QCOMPARE(TextCut::oneLine(text, max), expected);
        std::deque<QString> keep;
        QCOMPARE(TextCut::oneLineView(text, max, &keep).toString(), expected);
        QCOMPARE(TextCut::isOneLineAlready(text, max), expected == text);
    }

    void oneLineIsBoundedWhateverTheInput()
    {
        // A megabyte with no line break: the result is cut, never longer than asked.
        const QString huge = QString(1 << 20, u'y') + u"\nend"_s;
        const QString line = TextCut::oneLine(huge, 100);
        QCOMPARE(line.size(), 100);
        QVERIFY(line.endsWith(u'\u2026'));
        // Surrogate pairs everywhere: the cut keeps them whole.
        QString emoji;
        for (int i = 0; i < 100; ++i)
            emoji += u"\U0001F600 "_s;
        for (int max = 2; max < 40; ++max) {
            const QString out = TextCut::oneLine(emoji, max);
            QVERIFY(out.size() <= max);
            QVERIFY2(isWhole(out), qPrintable(QString::number(max)));
        }
    }

    void listItems_data()
    {
        QTest::addColumn<QString>("item");
        QTest::addColumn<bool>("isItem");
        QTest::newRow("dash") << u"- a"_s << true;
        QTest::newRow("star") << u"* a"_s << true;
        QTest::newRow("bullet") << u"\u2022 a"_s << true;
        QTest::newRow("number dot") << u"12. a"_s << true;
        QTest::newRow("number paren") << u"3) a"_s << true;
        QTest::newRow("dash without space") << u"-a"_s << false;
        QTest::newRow("number without text") << u"3."_s << false;
        QTest::newRow("plain") << u"a"_s << false;
        QTest::newRow("arabic-indic digit") << u"\u0663. a"_s << false;
    }

    void listItems()
    {
        QFETCH(QString, item);
        QFETCH(bool, isItem);
        QCOMPARE(TextCut::isListItem(item), isItem);
    }

    void bulletBlockKeepsTheNewest()
    {
        QCOMPARE(TextCut::bulletBlock({}, 100), QString());
        QCOMPARE(TextCut::bulletBlock({u"a"_s, u"- b"_s, u"1. c"_s}, 100), u"- a\n- b\n1. c"_s);
        // "- first" does not fit with the others: the oldest goes.
        QCOMPARE(TextCut::bulletBlock({u"first"_s, u"second"_s, u"third"_s}, 16), u"- second\n- third"_s);
        // One item too long alone is cut, not dropped.
        const QString block = TextCut::bulletBlock({u"old"_s, QString(50, u'x')}, 20);
        QCOMPARE(block.size(), 20);
        QVERIFY(block.startsWith(u"- xxx"_s));
    }

    void listWithMore()
    {
        QCOMPARE(TextCut::listWithMore({u"a"_s, u"b"_s}, 3), u"a, b"_s);
        QCOMPARE(TextCut::listWithMore({u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s}, 2), u"a, b (+3 more)"_s);
    }

    void appendUnique()
    {
        QStringList list;
        TextCut::appendUnique(&list, u"a"_s);
        TextCut::appendUnique(&list, QString());
        TextCut::appendUnique(&list, u"a"_s);
        TextCut::appendUnique(&list, u"b"_s);
        QCOMPARE(list, (QStringList{u"a"_s, u"b"_s}));
    }
};

QTEST_GUILESS_MAIN(TestTextCut)
#include "tst_textcut.moc"
