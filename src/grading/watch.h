/*
 * watch.h - noticing that one file was saved, for the TUI's exercise view: with inotify, a file
 * descriptor that a poll() loop waits on (the file's folder is watched for that name, since most
 * editors save by writing a new file and renaming it over the old one); where inotify cannot be
 * used (or CUDACHEF_WATCH=poll asks for it), by comparing the file's inode, size and times at
 * each call, which the loop then makes every WATCH_POLL_MS.
 */
#ifndef CUDACHEF_WATCH_H
#define CUDACHEF_WATCH_H

#define WATCH_POLL_MS 500 /* how often a loop calls watch_changed in polling mode */

typedef struct watch watch;

/* Watches path (the file may not exist yet). Returns the watch, or NULL with errno set when not
   even polling can be set up (ENOMEM, or ENAMETOOLONG for a path too long). */
watch *watch_open(const char *path);

/* The descriptor that becomes readable when the folder changes, or -1 when polling. */
int watch_fd(const watch *w);

/* 1 when the watch polls (the caller must call watch_changed every WATCH_POLL_MS), 0 with inotify. */
int watch_polling(const watch *w);

/* Drains what happened since the last call; 1 when the file was written, replaced or created,
   0 otherwise (a file that is missing for now is no change). Never blocks. */
int watch_changed(watch *w);

/* Stops watching and frees w (NULL is fine). */
void watch_close(watch *w);

#endif
