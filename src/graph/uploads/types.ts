// A markdown upload as the graph shows it (GitLab's FileUpload: id, path, size), with the links
// REST's upload answers (url, the markdown to paste).
import { uploadMarkdown } from "../../domain/uploads/presenter.js";
import type { UploadRecord } from "../../domain/uploads/queries.js";
import { builder } from "../shared/builder.js";
import { encodeGid } from "../shared/ids.js";

export const FileUploadRef = builder.objectRef<UploadRecord>("FileUpload").implement({
  description: "A file attached to the markdown of a project or a group.",
  fields: (t) => ({
    id: t.id({ resolve: (upload) => encodeGid("Upload", upload.id) }),
    path: t.string({ description: "The secret and the file name: `<secret>/<filename>`.", resolve: (upload) => `${upload.secret}/${upload.filename}` }),
    size: t.exposeInt("size"),
    url: t.string({ description: "The link markdown uses, relative to the project's or group's page.", resolve: (upload) => uploadMarkdown(upload).url }),
    markdown: t.string({ description: "The markdown that shows or links the file.", resolve: (upload) => uploadMarkdown(upload).markdown }),
  }),
});
