# A script that runs no command, so the Shell leaves no %lasterror% for it.
