package course;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckTest {
    @Test
    void sameBytesNamesTheFirstElementThatDiffers() {
        Check.sameBytes(new byte[] {1, 2, 3, 4}, new byte[] {1, 2, 3, 4}, 2, "x");
        AssertionError e = assertThrows(AssertionError.class, () -> Check.sameBytes(new byte[] {1, 2, 3, 9}, new byte[] {1, 2, 3, 4}, 2, "the array"));
        assertEquals("byte 3 (element 1) differs from the array", e.getMessage());
        AssertionError shorter = assertThrows(AssertionError.class, () -> Check.sameBytes(new byte[] {1, 2}, new byte[] {1, 2, 3, 4}, 2, "the array"));
        assertEquals("the file has 2 bytes; the array has 4", shorter.getMessage());
    }

    @Test
    void aThreadsFailureFailsTheCheck() throws Exception {
        int[] seen = new int[4];
        Check.inThreads(4, t -> seen[t] = t + 1);
        assertEquals(10, seen[0] + seen[1] + seen[2] + seen[3], "every index ran");
        AssertionError e = assertThrows(AssertionError.class, () -> Check.inThreads(3, t -> {
            if (t == 2) throw new java.io.IOException("disk full");
        }));
        assertTrue(e.getMessage().contains("disk full"), e.getMessage());
    }

    @Test
    void aSharedChannelCountsTheCallsThatUseItsPosition(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("x.dat");
        Files.createFile(file);
        try (var channel = new Check.CountingChannel(file)) {
            channel.write(ByteBuffer.wrap(new byte[] {1, 2}), 4);  // positional: no shared state
            assertEquals(0, channel.sharedPositionCalls());
            channel.position(0);
            channel.write(ByteBuffer.wrap(new byte[] {7}));
            assertEquals(2, channel.sharedPositionCalls(), "position(long) and write(buffer) both race between threads");
        }
        assertEquals(6, Files.size(file));
        assertEquals(7, Files.readAllBytes(file)[0]);
    }

    @Test
    void aCountingFileCountsEveryKindOfWrite(@TempDir Path dir) throws Exception {
        try (var file = new Check.CountingFile(dir.resolve("y.dat").toFile())) {
            file.write(1);
            file.write(new byte[] {1, 2});
            file.write(new byte[] {1, 2}, 0, 1);
            file.writeInt(5);  // JDK 21 on: one array write; before, four write(int)
            assertTrue(file.writes() >= 4, "" + file.writes());
        }
    }

    @Test
    void aScratchFileGoesAwayWhenClosed() throws Exception {
        Lab lab = Lab.open("00-start-here");
        Path path;
        try (var f = Check.scratchFile(lab, "check")) {
            path = f.path();
            assertTrue(Files.exists(path) && path.startsWith(lab.scratch()) && path.getFileName().toString().startsWith("check-"));
        }
        assertFalse(Files.exists(path));
    }
}
