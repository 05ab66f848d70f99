"""A review bot through python-gitlab 3.12: it reads a merge request's diff_refs and its changes,
finds an added line in the diff text, starts a thread on it (mr.discussions.create with a
`position`, sent as JSON), edits and deletes its note, and lists the diff versions (mr.diffs).
BOT_TOKEN belongs to a Reporter of the project the script creates (BOT_ID is the user's id)."""
import os
import re

from common import connect, emit, error_of, unique

gl = connect()
bot_gl = connect(os.environ["BOT_TOKEN"])

project = gl.projects.create({"name": unique("pybot"), "visibility": "private", "initialize_with_readme": True})
project.members.create({"user_id": int(os.environ["BOT_ID"]), "access_level": 20})
project.commits.create({"branch": "main", "commit_message": "Add lib.py", "actions": [
    {"action": "create", "file_path": "lib.py", "content": "import os\n\n\ndef run(cmd):\n    return cmd\n"},
]})
project.commits.create({"branch": "feature", "start_branch": "main", "commit_message": "Run commands", "actions": [
    {"action": "update", "file_path": "lib.py", "content": "import os\n\n\ndef run(cmd):\n    return os.system(cmd)\n"},
]})
mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "Run commands"})


def removed_and_added(diff):
    """The first removed line (old number) and the first added line (new number) of a diff text."""
    old = new = 0
    removed = added = None
    for line in diff.split("\n"):
        hunk = re.match(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@", line)
        if hunk:
            old, new = int(hunk.group(1)), int(hunk.group(2))
        elif line.startswith("-"):
            removed = removed or {"old_line": old, "text": line[1:]}
            old += 1
        elif line.startswith("+"):
            added = added or {"new_line": new, "text": line[1:]}
            new += 1
        elif line.startswith(" "):
            old += 1
            new += 1
    return removed, added


bot_mr = bot_gl.projects.get(project.id, lazy=True).mergerequests.get(mr.iid)
refs = bot_mr.diff_refs
change = next(c for c in bot_mr.changes()["changes"] if c["new_path"] == "lib.py")
removed, added = removed_and_added(change["diff"])
base = {"base_sha": refs["base_sha"], "start_sha": refs["start_sha"], "head_sha": refs["head_sha"],
        "position_type": "text", "old_path": change["old_path"], "new_path": change["new_path"]}

on_added = bot_mr.discussions.create({"body": "Shell injection risk", "position": {**base, "new_line": added["new_line"]}})
on_removed = bot_mr.discussions.create({"body": "Why drop this?", "position": {**base, "old_line": removed["old_line"]}})
note = on_added.attributes["notes"][0]
fetched = bot_mr.discussions.get(on_added.id).notes.get(note["id"])
fetched.body = "Shell injection risk: use subprocess.run([...])"
fetched.save()
listed = {d.id: [{k: n.get(k) for k in ("body", "type", "position", "resolvable")} for n in d.attributes["notes"]]
          for d in bot_mr.discussions.list(get_all=True)}
refused = error_of(lambda: bot_mr.discussions.create({"body": "Nope", "position": {**base, "new_line": 1}}))
versions = [v.attributes for v in bot_mr.diffs.list(get_all=True)]
version = bot_mr.diffs.get(versions[0]["id"]).attributes
bot_mr.discussions.get(on_added.id).notes.delete(note["id"])
gone = error_of(lambda: bot_mr.discussions.get(on_added.id))

emit({
    "refs": refs, "removed": removed, "added": added,
    "created": note, "listed_added": listed[on_added.id], "listed_removed": listed[on_removed.id],
    "refused": refused, "versions": versions, "version_diff_paths": [d["new_path"] for d in version["diffs"]],
    "version_commits": len(version["commits"]), "gone": gone,
})
