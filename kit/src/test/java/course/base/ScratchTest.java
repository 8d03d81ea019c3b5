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
        Scratch.forgetOpenMpiSession(tmp, 4321, tmp.resolve("shm"));
        assertFalse(Files.exists(tmp.resolve("ompi.host.1000/pid.4321")), "the stopped mpirun's folder, and all in it");
        assertTrue(Files.isDirectory(another) && Files.isDirectory(notOpenMpis) && Files.isDirectory(mine.getParent().getParent().getParent()));
        Scratch.forgetOpenMpiSession(tmp.resolve("missing"), 4321, tmp.resolve("shm"));  // no such folder: nothing to do, and no error
    }

    @Test
    void aStoppedMpirunsSharedMemoryGoesAndNoOtherJobsOrUsersDoes(@TempDir Path tmp) throws IOException {
        Object me = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        Path shm = Files.createDirectories(tmp.resolve("shm"));
        Files.writeString(Files.createDirectories(tmp.resolve("ompi.node.a.b." + me + "/pid.4321")).resolve("contact.txt"),
                "1555365888.0;tcp://192.0.2.2:47661\n");  // the mpirun's job id: family 0x5cb5
        Path ours0 = Files.createFile(shm.resolve("vader_segment.node.a.b." + me + ".5cb50001.0"));  // a host name with dots
        Path ours1 = Files.createFile(shm.resolve("vader_segment.node.a.b." + me + ".5cb50001.1"));
        Path otherJob = Files.createFile(shm.resolve("vader_segment.node.a.b." + me + ".5cb60001.0"));
        Path otherUser = Files.createFile(shm.resolve("vader_segment.node.a.b.99999.5cb50001.0"));
        Path link = Files.createSymbolicLink(shm.resolve("vader_segment.node.a.b." + me + ".5cb50002.0"), otherJob);
        Scratch.forgetOpenMpiSession(tmp, 4321, shm);
        assertFalse(Files.exists(ours0) || Files.exists(ours1), "the stopped job's segments");
        assertTrue(Files.exists(otherJob) && Files.exists(otherUser) && Files.isSymbolicLink(link), "another job's, another user's, a link");
    }
}
