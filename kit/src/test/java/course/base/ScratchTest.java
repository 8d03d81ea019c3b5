package course.base;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScratchTest {
    @Test
    void aStoppedMpirunsSessionFolderGoesAndNoOtherDoes(@TempDir Path tmp) throws IOException {
        Path mine = Files.createDirectories(tmp.resolve("ompi.host.1000/pid.4321/0/1"));
        Path another = Files.createDirectories(tmp.resolve("ompi.host.1000/pid.43210"));
        Path notOpenMpis = Files.createDirectories(tmp.resolve("other/pid.4321"));
        Scratch.forgetOpenMpiSession(tmp, 4321);
        assertFalse(Files.exists(tmp.resolve("ompi.host.1000/pid.4321")), "the stopped mpirun's folder, and all in it");
        assertTrue(Files.isDirectory(another) && Files.isDirectory(notOpenMpis) && Files.isDirectory(mine.getParent().getParent().getParent()));
        Scratch.forgetOpenMpiSession(tmp.resolve("missing"), 4321);  // no such folder: nothing to do, and no error
    }
}
