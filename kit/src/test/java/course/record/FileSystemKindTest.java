package course.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** File systems sorted by the kernel's names for them (findmnt's FSTYPE). */
class FileSystemKindTest {
    @Test
    void eachKindByItsNames() {
        assertEquals(FileSystemKind.NFS, FileSystemKind.of("nfs4"));
        assertEquals(FileSystemKind.NFS, FileSystemKind.of("nfs"));
        assertEquals(FileSystemKind.NETWORK, FileSystemKind.of("cifs"));
        assertEquals(FileSystemKind.LOCAL, FileSystemKind.of(null), "a card that names no file system");
        assertEquals(FileSystemKind.PARALLEL, FileSystemKind.of("lustre"));
        assertEquals(FileSystemKind.PARALLEL, FileSystemKind.of("gpfs"));
        assertEquals(FileSystemKind.MEMORY, FileSystemKind.of("tmpfs"));
        assertEquals(FileSystemKind.LOCAL, FileSystemKind.of("ext4"));
        assertEquals(FileSystemKind.LOCAL, FileSystemKind.of("overlay"), "a container's root: one machine's disk below it");
        assertTrue(FileSystemKind.of("beegfs").shared() && FileSystemKind.of("nfs4").shared() && FileSystemKind.of("smb3").shared());
        assertFalse(FileSystemKind.of("ext4").shared() || FileSystemKind.of("tmpfs").shared());
    }
}
