"""The classroom side: nbgrader assignments made from the labs themselves (python tools/classroom.py --help).

The course folder is build/classroom (COURSE_CLASSROOM overrides it); nbgrader_config.py comes from
classroom/. A lab's id is its file name without .ipynb (02-buffering). Each command's work is in a module of its
own: classroom_folder (the folder, nbgrader, the gradebook), classroom_release, classroom_collect, classroom_grade
(autograde, feedback, grades), classroom_handin and classroom_results; this file reads the command line."""
import argparse
import os
import sys
from pathlib import Path

from classroom_collect import collect
from classroom_folder import ROOT, prepare, scores
from classroom_grade import autograde, feedback, grades
from classroom_handin import handin
from classroom_release import release
from classroom_results import class_results
from labs import HOME, lab_paths


class OneLineParser(argparse.ArgumentParser):
    """argparse that says what was wrong in one line, naming the value (its usage is one --help away)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message.removeprefix('argument LAB: ')}\n")


def lab_ids(text):
    """The labs one argument names: make passes LAB="02-buffering 03-operation-size" as one argument, so it splits at
    spaces; each must be a lab of the course."""
    known = sorted(p.stem for p in lab_paths())
    names = text.split()
    for name in names:
        if name not in known:
            raise argparse.ArgumentTypeError(f"no lab {name} (labs: {', '.join(known)})")
    return names


def one_lab(text):
    labs = lab_ids(text)
    if len(labs) != 1:
        raise argparse.ArgumentTypeError(f"{text!r}: name one lab (02-buffering)")
    return labs[0]


def parser():
    commands = OneLineParser(prog="classroom", description=__doc__.splitlines()[0], epilog=__doc__.split("\n\n", 1)[1])
    each = commands.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=OneLineParser)

    def labs(command, what):
        sub = each.add_parser(command, help=what, description=what)
        sub.add_argument("labs", nargs="*", type=lab_ids, metavar="LAB",
                         help="a lab's id (02-buffering); several, or one argument holding several at spaces; none: every lab")

    each.add_parser("prepare", help="the classroom folder and its nbgrader_config.py (make teach)")
    labs("release", "the student versions: release/<lab>/<lab>.ipynb")
    labs("autograde", "grade submitted/*/<lab>/, each hand-in in a sandbox of its own")
    labs("scores", "{student: {grade cell: points}} from the gradebook")
    labs("feedback", "feedback/<student>/<lab>/<lab>.html for every graded hand-in")
    each.add_parser("grades", help="the class's marks as one CSV table, grades.csv")
    collecting = each.add_parser("collect", help="an LMS's download of one lab into submitted/<student>/<lab>/")
    collecting.add_argument("lab", type=one_lab, metavar="LAB", help="the one lab the download holds")
    collecting.add_argument("download", type=Path, metavar="FROM", help="the LMS's download: its zip, or the folder it unpacks to")
    handing = each.add_parser("handin", help="a learner's notebooks and results in one zip to hand in")
    handing.add_argument("learner", metavar="ID", help="the learner's id, as the teacher asked")
    handing.add_argument("results", nargs="?", metavar="RESULTS", help="the folder of results (COURSE_RESULTS, else data/results)")
    viewing = each.add_parser("class-results", help="the teacher's view of the hand-in zips in FOLDER")
    viewing.add_argument("folder", nargs="?", metavar="FOLDER", help="the zips' folder (COURSE_HANDIN, else build/handin)")
    viewing.add_argument("--lab", type=one_lab, help="the zips make collect took in for this lab (instead of FOLDER)")
    return commands


def main(argv):
    args = parser().parse_args(argv)
    every = [p.stem for p in lab_paths()]
    if "labs" in args:
        args.labs = [lab for named in args.labs for lab in named]  # each argument may name several
    if args.command == "prepare":
        prepare()
    elif args.command == "release":
        release(args.labs or every)
    elif args.command == "autograde":
        autograde(args.labs or every)
    elif args.command == "scores":
        if not (ROOT / "gradebook.db").exists():
            sys.exit(f"classroom: no gradebook in {ROOT} yet: make autograde grades the hand-ins first")
        for lab in args.labs or every:
            print(lab, scores(lab))
    elif args.command == "feedback":
        for lab in args.labs or every:
            feedback(lab)
    elif args.command == "grades":
        grades()
    elif args.command == "collect":
        if not args.download.exists():
            sys.exit(f"classroom: FROM={args.download}: no such file or folder (the LMS's download: its zip, or the folder it unpacks to)")
        collect(args.lab, args.download)
    elif args.command == "handin":
        if not args.learner:  # make handin without ID= passes it empty
            sys.exit("classroom: say who you are: make handin ID=<your learner id, as your teacher asked>")
        handin(args.learner, args.results or os.environ.get("COURSE_RESULTS") or HOME / "data/results",
               os.environ.get("COURSE_NOTEBOOKS") or os.environ.get("COURSE_MY_LABS") or HOME / "my-labs")
    elif args.command == "class-results":
        collected = ROOT / "downloaded" / (args.lab or "") / "archive"
        if args.lab and not args.folder and not collected.is_dir():
            sys.exit(f"classroom: no hand-ins of {args.lab} collected in {collected.parent} yet: make collect LAB={args.lab} FROM=<the LMS's download> first")
        class_results(args.folder or (args.lab and collected) or os.environ.get("COURSE_HANDIN") or HOME / "build/handin")


if __name__ == "__main__":
    main(sys.argv[1:])
