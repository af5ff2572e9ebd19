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

    @Test
    void aRowIsReadThroughItsColumnArrays() {
        byte[] data = "..Zoë|x|東京".getBytes(StandardCharsets.UTF_8);
        int zoe = 2;
        int zoeLen = "Zoë".getBytes(StandardCharsets.UTF_8).length;
        int x = zoe + zoeLen + 1;
        int tokyo = x + 2;
        // Two rows of three columns; the second row's attributes start at index 3 + 1 (its column 0 is an id).
        int[] offsets = {0, 0, 0, 0, zoe, x, tokyo};
        int[] lengths = {0, 0, 0, -9, zoeLen, -1, data.length - tokyo};
        Attributes a = new Attributes(4);
        a.set(3, "left over");
        a.setUtf8Row(data, offsets, lengths, 4, 3);
        assertThat(a.toArray()).containsExactly("Zoë", null, "東京", null);
        assertThat(a.utf8(0)).isEqualTo("Zoë".getBytes(StandardCharsets.UTF_8));
        assertThat(a.utf8(1)).isNull();
        assertThat(a.get(0)).isSameAs(a.get(0));
        // One attribute set on its own afterwards; the others still come from the row.
        a.set(2, "own");
        a.setUtf8(1, "bytes".getBytes(StandardCharsets.UTF_8));
        assertThat(a.toArray()).containsExactly("Zoë", "bytes", "own", null);
        assertThat(a.utf8(2)).isEqualTo("own".getBytes(StandardCharsets.UTF_8));
        // The next row replaces everything, decoded Strings and own bytes included.
        byte[] next = "abc".getBytes(StandardCharsets.UTF_8);
        a.setUtf8Row(next, new int[] {0, 1, 2, 0}, new int[] {1, 1, 1, 0}, 0, 4);
        assertThat(a.toArray()).containsExactly("a", "b", "c", "");
        a.clear();
        assertThat(a.toArray()).containsExactly(null, null, null, null);
        assertThat(a.utf8(0)).isNull();
    }

    @Test
    void aRowMustFitItsArraysAndTheView() {
        Attributes a = new Attributes(2);
        byte[] data = new byte[4];
        assertThatThrownBy(() -> a.setUtf8Row(data, new int[3], new int[3], 2, 2))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> a.setUtf8Row(data, new int[3], new int[3], 0, 3))
                .isInstanceOf(IndexOutOfBoundsException.class);
        // A slice past the data fails when it is read, not silently.
        a.setUtf8Row(data, new int[] {3}, new int[] {2}, 0, 1);
        assertThatThrownBy(() -> a.get(0)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
