package course.record;

import java.util.Set;

/**
 * What kind of storage a file system is, by the kernel's name for it (findmnt's FSTYPE, the machine card's
 * "filesystem"): memory, NFS or another network file system, a parallel one striped over several servers, or one machine's own.
 */
public enum FileSystemKind {
    /** Files kept in memory: no device behind them. */
    MEMORY(Set.of("tmpfs", "ramfs")),
    /** One server's disks shared over the network with every client by NFS, as Awan et al.'s cluster had them. */
    NFS(Set.of("nfs", "nfs4")),
    /** Another file system a server shares over the network (SMB). */
    NETWORK(Set.of("cifs", "smb3")),
    /** Files striped over the disks of several servers, every node a client: HPC's shared scratch. */
    PARALLEL(Set.of("lustre", "gpfs", "beegfs", "ceph", "fuse.glusterfs", "glusterfs", "pvfs2", "orangefs", "panfs", "wekafs")),
    /** One machine's own disk (or what its VM sees as one). */
    LOCAL(Set.of());

    private final Set<String> names;

    FileSystemKind(Set<String> names) {
        this.names = names;
    }

    /** The kind of a file system named as the kernel names it; LOCAL for any name not listed. */
    public static FileSystemKind of(String filesystem) {
        if (filesystem == null) return LOCAL;  // a card that names none
        for (FileSystemKind kind : values()) {
            if (kind.names.contains(filesystem)) return kind;
        }
        return LOCAL;
    }

    /** Several nodes mount it at once: a network or parallel file system. */
    public boolean shared() {
        return this == NFS || this == NETWORK || this == PARALLEL;
    }
}
