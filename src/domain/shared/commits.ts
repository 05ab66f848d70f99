// What every part of the domain says of a commit: its id, parents, message and people with their
// times (each in the offset git recorded). Read from git by repository/git.ts.
export interface CommitFacts {
  sha: string;
  parentShas: string[];
  /** GitLab's full_title: the first line ("No commit message" for none) */
  title: string;
  message: string;
  authorName: string;
  authorEmail: string;
  authoredAt: Date;
  /** the author's UTC offset as git recorded it ("+0200") */
  authorTimezone: string;
  committerName: string;
  committerEmail: string;
  committedAt: Date;
  committerTimezone: string;
}
