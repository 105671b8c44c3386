/* SPDX-License-Identifier: GPL-2.0-or-later
 * Offsets from struct xfs_dsb (xfsprogs libxfs/xfs_format.h); every field is
 * big-endian on disk. */
#include "sys/xfs_sb.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#define SB_MAGIC 0x58465342u       /* "XFSB" */
#define OFF_MAGIC 0
#define OFF_BLOCKSIZE 4
#define OFF_UUID 32
#define OFF_INPROGRESS 126
#define OFF_UNIT 184
#define OFF_WIDTH 188

static uint32_t be32(const unsigned char *p)
{
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

int xfs_sb_parse(const unsigned char *buf, struct xfs_sb_info *ret)
{
        memset(ret, 0, sizeof(*ret));
        if (be32(buf + OFF_MAGIC) != SB_MAGIC)
                return -ENOENT;
        const unsigned char *u = buf + OFF_UUID;
        snprintf(ret->uuid, sizeof ret->uuid,
                 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4],
                 u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
        ret->block_bytes = be32(buf + OFF_BLOCKSIZE);
        ret->sunit_blocks = be32(buf + OFF_UNIT);
        ret->swidth_blocks = be32(buf + OFF_WIDTH);
        ret->inprogress = buf[OFF_INPROGRESS] != 0;
        return 0;
}

int xfs_sb_read(const char *path, struct xfs_sb_info *ret)
{
        unsigned char buf[512];
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        ssize_t n = pread(fd, buf, sizeof buf, 0);
        int e = errno;
        close(fd);
        if (n < 0)
                return -e;
        if (n < (ssize_t)sizeof buf)
                return -ENOENT;
        return xfs_sb_parse(buf, ret);
}

/* struct xfs_fsop_geom (v5), as the XFS_IOC_FSGEOMETRY ioctl of Linux ≥ 5.1
 * returns it (256 bytes); sunit and swidth in filesystem blocks, logsunit in
 * bytes. Declared here since the system may have no xfsprogs headers. */
struct fsop_geom {
        uint32_t blocksize, rtextsize, agblocks, agcount, logblocks, sectsize, inodesize, imaxpct;
        uint64_t datablocks, rtblocks, rtextents, logstart;
        unsigned char uuid[16];
        uint32_t sunit, swidth;
        int32_t version;
        uint32_t flags, logsectsize, rtsectsize, dirblocksize, logsunit, sick, checked;
        uint64_t reserved[17];
};
_Static_assert(sizeof(struct fsop_geom) == 256, "xfs_fsop_geom v5 is 256 bytes");
#define FSGEOMETRY_V5 _IOR('X', 126, struct fsop_geom)


int xfs_geom_ioctl(const char *mountpoint, struct xfs_sb_info *ret)
{
        struct fsop_geom g;
        memset(&g, 0, sizeof g);
        memset(ret, 0, sizeof(*ret));
        int fd = open(mountpoint, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        int rc = ioctl(fd, FSGEOMETRY_V5, &g);
        if (rc < 0 && (errno == ENOTTY || errno == EINVAL))
                rc = ioctl(fd, _IOR('X', 124, unsigned char[112]), &g);
        int e = errno;
        close(fd);
        if (rc < 0)
                return -e;
        const unsigned char *u = g.uuid;
        snprintf(ret->uuid, sizeof ret->uuid,
                 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4],
                 u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
        ret->block_bytes = g.blocksize;
        ret->sunit_blocks = g.sunit;
        ret->swidth_blocks = g.swidth;
        return 0;
}
