/* src/procs/rank_hub.h: redbench started as several processes by a launcher
 * (`mpirun -np N redbench -c x.ini`, `srun -n N redbench ...`): process 0
 * runs the experiment and writes the results; every other process serves
 * it, starting one rank of each configuration whose ranks are the
 * launcher's N. Process k learns its place from the launcher's environment
 * (OMPI_COMM_WORLD_RANK and _SIZE, PMI_RANK and PMI_SIZE, SLURM_PROCID and
 * SLURM_NTASKS). They meet at rank 0's hub: a socket named after the job
 * on one node, or REDBENCH_LEADER=HOST:PORT (TCP) across nodes. No MPI
 * library is involved: what the ranks share goes through the hub. A
 * plugin whose ranks are MPI processes runs, in each process k, in one
 * MPI rank process that process k starts the first time and keeps for
 * the run (MPI is initialised once per job); process 0's is started by a
 * helper it forks at the start, which it asks as it asks the others. */
#ifndef RB_RANK_HUB_H
#define RB_RANK_HUB_H

#include <stddef.h>
#include <stdint.h>

/* This process's rank among those a launcher started (mpirun's, PMI's or
 * Slurm's variables); 0 when there are none. */
int hub_launcher_rank(uint32_t *rank);

/* Whether this process was started by a launcher with more than one
 * process (and is not a rank that redbench started itself). */
int hub_launched(uint32_t *rank, uint32_t *size);

/* Process 0: waits for the others to report at the hub. Returns 0, or -1
 * with the reason printed. The others: connect, then serve until process 0
 * is done, calling `serve(user, config, leader_address, rank)` in a fresh
 * child for each configuration they are asked to run a rank of; they end
 * the process there and never return. */
typedef void (*hub_serve_fn)(void *user, size_t config, const char *leader, uint32_t rank);
/* The MPI rank process of each process (process 0's too): started the
 * first time a configuration of an MPI plugin needs it, it reads requests
 * from `requests` (hub_mpi_request) and serves each as rank `rank`, until
 * the requests end (the run is over: it ends the process with exit, so
 * that MPI is finalized); it never returns. */
typedef void (*hub_mpi_fn)(void *user, int requests, uint32_t rank);
int hub_start(hub_serve_fn serve, hub_mpi_fn serve_mpi, void *user);

/* Process 0 (or its workers): the processes of the hub, 0 when none. */
uint32_t hub_size(void);

/* Asks process `rank` to start a rank of configuration `config` that
 * reports to `leader` ("unix:PATH" or "tcp:HOST:PORT"); with `mpi`, asks
 * its MPI rank process (rank 0 too: process 0's helper). Returns 0 or -1. */
int hub_request(uint32_t rank, size_t config, const char *leader, int mpi);

/* The descriptors of the hub that this process holds (its sockets to the
 * launcher's processes and to its helper), at most `max` of them into
 * `out`: what a worker keeps open so that it can ask the launcher's
 * processes to start their ranks. Returns the count (0 when no hub). */
size_t hub_descriptors(int *out, size_t max);

/* In an MPI rank process: the next request (configuration and leader).
 * Returns 0, or -1 when the requests ended (the run is over). */
int hub_mpi_request(int fd, size_t *config, char *leader, size_t len);

/* Ends the ranks the processes started for the configuration in progress;
 * after a `fault`, their MPI rank processes too (MPI is then lost for the
 * job: hub_mpi_lose). */
void hub_end_config(int fault);

/* Process 0 and its workers: records that MPI was lost for the job, and
 * why (the first reason is kept); and that reason, or NULL while MPI is
 * not lost. */
void hub_mpi_lose(const char *why);
const char *hub_mpi_lost(void);

/* Tells the others that the run is over. */
void hub_stop(void);

/* The address a leader listens on for ranks of other processes: the
 * host of REDBENCH_LEADER (TCP, a free port), or "" for a local socket. */
const char *hub_leader_host(void);

/* A stream socket connected to "unix:PATH" or "tcp:HOST:PORT", or -1
 * (a TCP one sends at once: see hub_no_delay). */
int hub_connect(const char *address);

/* Turns Nagle's algorithm off on `fd` when it is a TCP socket (a local one
 * is left as it is): a message is its header and its body, two writes, and
 * the body would otherwise wait for the header's acknowledgement. */
void hub_no_delay(int fd);

#endif
