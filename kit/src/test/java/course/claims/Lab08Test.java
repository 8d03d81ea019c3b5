package course.claims;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What lab 08 says of the file system that held its shared file, by its kind, its mount options and the MPI-IO the C runs went through. */
class Lab08Test {
    @Test
    void whatTheFileSystemMeansFollowsItsKindAndTheMountsOptions() {
        String nfs = Lab08.whatTheFileSystemMeans(Map.of("filesystem", "nfs", "mount options", "rw,relatime,vers=3,noac,nolock"), "ompio");
        assertTrue(nfs.contains("has noac") && nfs.contains("nolock") && nfs.contains("went through Open MPI's OMPIO"), nfs);
        String cached = Lab08.whatTheFileSystemMeans(Map.of("filesystem", "nfs4", "mount options", "rw,relatime,vers=4.2"), "romio");
        assertTrue(cached.contains("no noac") && !cached.contains("nolock") && cached.contains("went through ROMIO"), cached);
        assertTrue(Lab08.whatTheFileSystemMeans(Map.of("filesystem", "nfs4"), null).contains("OMPIO locks the whole file"), "no MPI-IO run: both told");
        assertTrue(Lab08.whatTheFileSystemMeans(Map.of("filesystem", "lustre"), "ompio").contains("stripes"));
        assertTrue(Lab08.whatTheFileSystemMeans(Map.of("filesystem", "tmpfs"), null).contains("memory"));
        String local = Lab08.whatTheFileSystemMeans(Map.of("filesystem", "xfs"), "ompio");
        assertTrue(local.startsWith("xfs is one machine's own disk"), local);
        assertFalse(local.contains("OMPIO"), local);
    }
}
