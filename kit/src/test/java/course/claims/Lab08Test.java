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
        assertTrue(nfs.contains("has noac") && nfs.contains("on one node") && nfs.contains("went through Open MPI's OMPIO"), nfs);
        String cached = Lab08.whatTheFileSystemMeans(Map.of("filesystem", "nfs4", "mount options", "rw,relatime,vers=4.2,noacl"), "romio");
        assertTrue(cached.contains("no noac") && !cached.contains("on one node") && cached.contains("went through ROMIO"), "noacl is not noac: " + cached);
        assertTrue(Lab08.nfsMount("rw,vers=4.2,local_lock=all").contains("on one node"));
        assertTrue(Lab08.whatTheFileSystemMeans(Map.of("filesystem", "nfs4", "mount options", "unknown"), null).contains("not known"));
        assertTrue(Lab08.whatTheFileSystemMeans(Map.of("filesystem", "nfs4"), null).contains("not known"), "a card from before the options were kept");
        String smb = Lab08.whatTheFileSystemMeans(Map.of("filesystem", "cifs", "mount options", "rw,noac"), "ompio");
        assertFalse(smb.contains("OMPIO") || smb.contains("noac"), "SMB is told as SMB, not as NFS: " + smb);
        assertTrue(Lab08.whatTheFileSystemMeans(Map.of("filesystem", "nfs4"), null).contains("OMPIO locks the whole file"), "no MPI-IO run: both told");
        assertTrue(Lab08.whatTheFileSystemMeans(Map.of("filesystem", "lustre"), "ompio").contains("stripes"));
        assertTrue(Lab08.whatTheFileSystemMeans(Map.of("filesystem", "tmpfs"), null).contains("memory"));
        String local = Lab08.whatTheFileSystemMeans(Map.of("filesystem", "xfs"), "ompio");
        assertTrue(local.startsWith("xfs is one machine's own disk"), local);
        assertFalse(local.contains("OMPIO"), local);
    }
}
