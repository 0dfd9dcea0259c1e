/* tests/report/measure.c: `measure OUT COMMAND [ARG]...` runs a command and
 * writes to OUT its exit status (128 + the signal that ended it), the
 * processor seconds it and the children it waited for took (user and
 * system), and the most memory any of them held at once (the peak
 * resident set, in kilobytes), as "STATUS SECONDS KB". For the checks of
 * test_results_large.sh, which hold `redbench report`, `plot` and
 * `compare` of a large results file to their time and memory. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: measure OUT COMMAND [ARG]...\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("measure: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror("measure: exec");
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) {
        perror("measure: wait4");
        return 2;
    }
    FILE *out = fopen(argv[1], "w");
    if (!out) {
        perror(argv[1]);
        return 2;
    }
    double seconds = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
                     (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    fprintf(out, "%d %.2f %ld\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
            seconds, ru.ru_maxrss);
    return fclose(out) == 0 ? 0 : 2;
}
