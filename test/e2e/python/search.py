"""Search through python-gitlab 3.12: gl.search, group.search and project.search per scope, for an
outsider (OUTSIDER_TOKEN), a Developer of the private project (MEMBER_TOKEN) and the
administrator, and the errors the client raises. TERM is the word the fixtures carry; GROUP_ID,
PUBLIC_ID and PRIVATE_ID name the group and its projects, MEMBER_USERNAME the Developer."""
import os

from gitlab import const

from common import connect, emit, error_of

term = os.environ["TERM_WORD"]
admin = connect()
outsider = connect(os.environ["OUTSIDER_TOKEN"])
member = connect(os.environ["MEMBER_TOKEN"])


def titles(rows):
    return sorted(row.get("title") or row.get("name") for row in rows)


group = outsider.groups.get(int(os.environ["GROUP_ID"]))
public = outsider.projects.get(int(os.environ["PUBLIC_ID"]))
private_lazy = outsider.projects.get(int(os.environ["PRIVATE_ID"]), lazy=True)
private_as_member = member.projects.get(int(os.environ["PRIVATE_ID"]))

emit({
    "issues": {
        "outsider": titles(outsider.search(const.SearchScope.ISSUES, term)),
        "member": titles(member.search(const.SearchScope.ISSUES, term)),
        "admin": titles(admin.search(const.SearchScope.ISSUES, term)),
    },
    "group": {
        "projects": [p["id"] for p in group.search(const.SearchScope.PROJECTS, term)],
        "issues": titles(group.search(const.SearchScope.ISSUES, term)),
        "merge_requests": titles(group.search(const.SearchScope.MERGE_REQUESTS, term)),
        "milestones": titles(group.search(const.SearchScope.MILESTONES, term)),
    },
    "project": {
        "notes": [n["body"] for n in public.search(const.SearchScope.PROJECT_NOTES, term)],
        "commits": [c["title"] for c in public.search(const.SearchScope.COMMITS, term)],
        "blobs": sorted([b["path"], b["ref"]] for b in public.search(const.SearchScope.BLOBS, term)),
        "private_as_member": titles(private_as_member.search(const.SearchScope.ISSUES, term)),
    },
    "users": [u["id"] for u in outsider.search(const.SearchScope.USERS, os.environ["MEMBER_USERNAME"])],
    "all_pages": len(admin.search(const.SearchScope.ISSUES, term, get_all=True)),
    "private_as_outsider": error_of(lambda: private_lazy.search(const.SearchScope.ISSUES, term)),
    "bad_scope": error_of(lambda: outsider.search("blobs", term)),
})
