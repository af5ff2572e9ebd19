package org.bgbench.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AttributesTest {
    @Test
    void bytesAreDecodedAsUtf8OnlyWhenRead() {
        Attributes a = new Attributes(3);
        byte[] raw = "Zoë 東京".getBytes(StandardCharsets.UTF_8);
        a.setUtf8(0, raw);
        a.set(1, "plain");
        assertThat(a.utf8(0)).isSameAs(raw);
        assertThat(a.get(0)).isEqualTo("Zoë 東京");
        // Decoded once, then the same String.
        assertThat(a.get(0)).isSameAs(a.get(0));
        assertThat(a.get(1)).isEqualTo("plain");
        assertThat(a.utf8(1)).isEqualTo("plain".getBytes(StandardCharsets.UTF_8));
        assertThat(a.get(2)).isNull();
        assertThat(a.utf8(2)).isNull();
        assertThat(a.toArray()).containsExactly("Zoë 東京", "plain", null);
    }

    @Test
    void settingOneFormForgetsTheOther() {
        Attributes a = new Attributes(1);
        a.set(0, "old");
        a.setUtf8(0, "new".getBytes(StandardCharsets.UTF_8));
        assertThat(a.get(0)).isEqualTo("new");
        a.set(0, "newer");
        assertThat(a.utf8(0)).isEqualTo("newer".getBytes(StandardCharsets.UTF_8));
        a.setUtf8(0, null);
        assertThat(a.get(0)).isNull();
    }

    @Test
    void aReusedRowTakesTheNextCallsAttributes() {
        MemberList list = new MemberList(2);
        MemberList.Row r = list.add(7);
        r.attributes.set(0, "x");
        r.attributes.setUtf8(1, "y".getBytes(StandardCharsets.UTF_8));
        assertThat(r.attributes.get(1)).isEqualTo("y");
        list.clear();
        // Rows are recycled; a store sets every attribute again, in either form.
        MemberList.Row again = list.add(8);
        assertThat(again).isSameAs(r);
        again.attributes.setUtf8(0, "x2".getBytes(StandardCharsets.UTF_8));
        again.attributes.set(1, "y2");
        assertThat(again.attributes.toArray()).containsExactly("x2", "y2");

        ProfileView p = new ProfileView(2);
        p.attributes.set(0, "a");
        p.clear();
        assertThat(p.attributes.get(0)).isNull();
    }

    @Test
    void setAllTakesWhatFits() {
        Attributes a = new Attributes(2);
        a.setAll(new String[] {"a", "b", "c"});
        assertThat(a.toArray()).containsExactly("a", "b");
        Attributes wide = new Attributes(3);
        wide.setAll(new String[] {"a"});
        assertThat(wide.toArray()).containsExactly("a", null, null);
        assertThat(wide.count()).isEqualTo(3);
    }

    @Test
    void slicesOfOneArrayAreSeparateAttributes() {
        byte[] reply = "xxätzyyy".getBytes(StandardCharsets.UTF_8); // ä is two bytes
        Attributes a = new Attributes(3);
        a.setUtf8(0, reply, 2, 3);
        a.setUtf8(1, reply, 5, 1);
        a.setUtf8(2, reply, 0, 0);
        assertThat(a.toArray()).containsExactly("ät", "z", "");
        assertThat(a.utf8(0)).containsExactly("ät".getBytes(StandardCharsets.UTF_8));
        assertThat(a.utf8(1)).containsExactly('z');
        // A whole array set afterwards is read whole again, not through the last slice's bounds.
        a.setUtf8(1, "whole".getBytes(StandardCharsets.UTF_8));
        assertThat(a.get(1)).isEqualTo("whole");
        assertThat(a.utf8(1)).hasSize(5);
        assertThatThrownBy(() -> a.setUtf8(0, reply, 6, 4)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void slicesOfEarlierRepliesStayReadableWhileLaterRepliesAreShared() {
        // The shared array changes with every reply; an attribute not set again keeps its own reply's bytes.
        byte[] first = "aaAA".getBytes(StandardCharsets.UTF_8);
        byte[] second = "bbBB".getBytes(StandardCharsets.UTF_8);
        byte[] third = "ccCC".getBytes(StandardCharsets.UTF_8);
        Attributes a = new Attributes(3);
        a.setUtf8(0, first, 0, 2);
        a.setUtf8(1, first, 2, 2);
        a.setUtf8(2, first, 1, 2);
        a.setUtf8(1, second, 0, 2);
        assertThat(a.toArray()).containsExactly("aa", "bb", "aA");
        a.setUtf8(2, third, 2, 2);
        assertThat(a.toArray()).containsExactly("aa", "bb", "CC");
        a.setUtf8(0, first, 3, 1); // the first array again, after two others
        a.setUtf8(1, third, 0, 1);
        assertThat(a.toArray()).containsExactly("A", "c", "CC");
        assertThat(a.utf8(0)).containsExactly('A');
        // Strings and own arrays in between do not disturb the slices.
        a.set(1, "text");
        a.setUtf8(2, "own".getBytes(StandardCharsets.UTF_8));
        a.setUtf8(0, second, 2, 2);
        assertThat(a.toArray()).containsExactly("BB", "text", "own");
        a.clear();
        assertThat(a.toArray()).containsExactly(null, null, null);
        a.setUtf8(1, third, 1, 3);
        assertThat(a.toArray()).containsExactly(null, "cCC", null);
    }

    @Test
    void aRowSetFromEveryNewReplyReadsItsLatestReply() {
        Attributes a = new Attributes(2);
        for (int reply = 0; reply < 50; reply++) {
            byte[] data = ("r" + reply + "|s" + reply).getBytes(StandardCharsets.UTF_8);
            int bar = data.length / 2;
            a.setUtf8(0, data, 0, bar);
            a.setUtf8(1, data, bar + 1, data.length - bar - 1);
            assertThat(a.toArray()).containsExactly("r" + reply, "s" + reply);
        }
    }
}
