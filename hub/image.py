"""The course as learners may see it, for a hub's image (repo2docker builds it; hub/k8s/values.yaml serves it)."""
import shutil
import subprocess
import sys

from labs import HOME, lab_paths

from hub.answers import HIDDEN


def image_tree(destination):
    """The course's files as learners may see them, in a new folder: what git tracks, but for HIDDEN, with each lab its
    student version (no solutions, no hidden tests)."""
    if destination.exists():
        sys.exit(f"hub: image-tree: {destination} exists; name a new folder")
    import learner
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=HOME, capture_output=True, text=True, check=True).stdout.split("\0")
    partial = destination.with_name(f".{destination.name}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    labs = set(lab_paths())
    for name in filter(None, tracked):
        source = HOME / name
        if any(name == part or name.startswith(f"{part}/") for part in HIDDEN) or source in labs or not source.exists():
            continue
        (partial / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, partial / name, follow_symlinks=False)
    learner.prepare(partial / "labs")
    partial.rename(destination)
    print(f"hub: the course as learners may see it, in {destination}: build the hub's image from it "
          f"(repo2docker --target-repo-dir /srv/java-io-course {destination})")
